import type { ReactNode } from 'react';

/**
 * The horizontally scrollable box around a table: a named region that takes keyboard focus, so a
 * keyboard user can scroll a table wider than the screen (WCAG 2.1.1; axe "scrollable-region-focusable").
 * Named by the table's caption (`captionId`).
 */
export function TableWrap({ captionId, children }: { captionId: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className="app-table-wrap" tabIndex={0} aria-labelledby={captionId}>
      {children}
    </section>
  );
}
