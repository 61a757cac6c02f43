import type { ReactNode } from 'react';
import { useApp } from '../lib/app-context.tsx';

/**
 * The bar of a list's bulk actions (issue 20 item 3): a fieldset whose legend counts the chosen rows,
 * the list's own actions, and "Clear selection". Shown while rows are chosen.
 */
export function BulkBar({
  id,
  legend,
  onClear,
  children,
}: {
  /** The fieldset's id; the clear button is `{id}-clear`. */
  id: string;
  legend: string;
  onClear: () => void;
  children: ReactNode;
}) {
  const { t } = useApp();
  return (
    <fieldset className="app-bulk" id={id}>
      <legend>{legend}</legend>
      {children}
      <button type="button" className="app-button" id={`${id}-clear`} onClick={onClear}>
        {t('app.table.clearSelection')}
      </button>
    </fieldset>
  );
}

/**
 * What became of a bulk action, announced: the counts, and each refused row with the reason (the
 * server's code in the reader's words).
 */
export function BulkOutcome({
  id,
  summary,
  refused,
}: {
  id: string;
  /** The counts in words; nothing shown while undefined. */
  summary: string | undefined;
  refused: readonly { key: string; text: string }[];
}) {
  return (
    <div aria-live="polite" className="app-live">
      {summary !== undefined ? (
        <div id={id} className="app-done">
          <p>{summary}</p>
          {refused.length > 0 ? (
            <ul>
              {refused.map((r) => (
                <li key={r.key}>{r.text}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
