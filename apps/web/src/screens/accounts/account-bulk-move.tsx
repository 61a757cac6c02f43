import type { AccountBulkResult, AccountGroupSummary } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useState } from 'react';
import { BulkBar, BulkOutcome } from '../../frame/bulk.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { useBulkMoveAccounts } from './accounts-queries.ts';

interface Props {
  number: string;
  /** The chosen accounts (ids), on any page of the search. */
  chosen: ReadonlySet<string>;
  onChosenChange: (next: Set<string>) => void;
  /** The company's account groups (the active ones are offered). */
  groups: readonly AccountGroupSummary[];
  /** The masked number of each account seen, to name the refused ones. */
  numberOf: (id: number) => string;
}

/**
 * "Move to a group" on the accounts list (issue 20 item 3): the bar that counts the chosen accounts,
 * the group to move them to, a confirmation, and what became of each (moved, already there, refused
 * with the reason — those stay chosen). The server moves each account as on its own page.
 */
export function AccountBulkMove({ number, chosen, onChosenChange, groups, numberOf }: Props) {
  const { t, tCount, problemText } = useApp();
  const active = groups.filter((g) => g.active);
  const [groupId, setGroupId] = useState('');
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<AccountBulkResult | undefined>();
  const move = useBulkMoveAccounts(number);
  const target = active.find((g) => String(g.id) === groupId) ?? active[0];

  const run = () => {
    setAsking(false);
    if (!target) return;
    move.mutate(
      { groupId: target.id, accountIds: [...chosen].map(Number) },
      {
        onSuccess: (answer) => {
          setOutcome(answer);
          onChosenChange(
            new Set(answer.results.filter((r) => r.outcome === 'refused').map((r) => String(r.id))),
          );
        },
      },
    );
  };

  return (
    <>
      {chosen.size > 0 ? (
        <BulkBar
          id="accounts-bulk"
          legend={tCount('app.accounts.bulk.selected', chosen.size)}
          onClear={() => onChosenChange(new Set())}
        >
          {target ? (
            <>
              <label htmlFor="accounts-bulk-group">{t('app.accounts.bulk.group')}</label>
              <select
                id="accounts-bulk-group"
                className="cp-field__input app-bulk__select"
                value={String(target.id)}
                onChange={(event) => setGroupId(event.target.value)}
              >
                {active.map((g) => (
                  <option key={g.id} value={String(g.id)}>
                    {g.name}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="app-button app-button--primary"
                id="accounts-bulk-move"
                disabled={move.isPending}
                onClick={() => setAsking(true)}
              >
                {t('app.accounts.bulk.move')}
              </button>
            </>
          ) : (
            <p className="app-hint">{t('app.accounts.bulk.noGroup')}</p>
          )}
        </BulkBar>
      ) : null}
      <BulkOutcome
        id="accounts-bulk-outcome"
        results={outcome?.results}
        summaryKey="app.accounts.bulk.outcome"
        refusedKey="app.accounts.bulk.refused"
        nameOf={(r) => numberOf(r.id)}
      />
      <ErrorSummary
        id="accounts-bulk-error"
        message={move.isError ? problemText(problemOf(move.error)) : undefined}
      />
      <ConfirmDialog
        open={asking}
        idPrefix="accounts-bulk-confirm"
        title={target ? tCount('app.accounts.bulk.confirm', chosen.size, target.name) : ''}
        body={t('app.accounts.bulk.confirmBody')}
        confirmLabel={t('app.accounts.bulk.move')}
        onConfirm={run}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
