import type { ReactNode } from 'react';
import { useApp } from '../lib/app-context.tsx';
import type { TextKey } from '../lib/text.ts';

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

/** One row's fate in a bulk action's answer (users, accounts). */
export interface BulkResult {
  outcome: 'done' | 'unchanged' | 'refused';
  /** Why it was refused: a message key of the single action's refusal. */
  code: string | null;
}

/**
 * What became of a bulk action, announced: the counts (`summaryKey`: {0} done, {1} unchanged, {2}
 * refused), and each refused row (`refusedKey`: {0} the row's name, {1} the reason in the reader's words).
 */
export function BulkOutcome<R extends BulkResult>({
  id,
  results,
  summaryKey,
  refusedKey,
  nameOf,
}: {
  id: string;
  /** The answer's rows; nothing shown while undefined. */
  results: readonly R[] | undefined;
  summaryKey: TextKey;
  refusedKey: TextKey;
  nameOf: (row: R) => string;
}) {
  const { t, problemText } = useApp();
  const counted = (which: BulkResult['outcome']) => results?.filter((r) => r.outcome === which).length ?? 0;
  const refused = results?.filter((r) => r.outcome === 'refused') ?? [];
  return (
    <div aria-live="polite" className="app-live">
      {results !== undefined ? (
        <div id={id} className="app-done">
          <p>
            {t(summaryKey, String(counted('done')), String(counted('unchanged')), String(counted('refused')))}
          </p>
          {refused.length > 0 ? (
            <ul>
              {refused.map((r) => (
                <li key={nameOf(r)}>{t(refusedKey, nameOf(r), problemText(r.code ?? 'error.generic'))}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
