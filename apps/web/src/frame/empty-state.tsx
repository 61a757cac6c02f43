import type { ReactNode } from 'react';

/**
 * What a list or a panel says when it has nothing to show (issue 20 item 7: the same empty state
 * everywhere): one quiet, bordered box, the same as DataTable's `empty`.
 */
export function EmptyState({ id, children }: { id?: string | undefined; children: ReactNode }) {
  return (
    <p className="app-empty" id={id}>
      {children}
    </p>
  );
}
