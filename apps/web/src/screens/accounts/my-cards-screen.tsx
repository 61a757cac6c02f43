import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { DataTable } from '../../frame/data-table.tsx';
import { EmptyState } from '../../frame/empty-state.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { accountColumns } from './accounts-columns.tsx';
import { myCardsQuery } from './accounts-queries.ts';

/** A cardholder's own card accounts, masked, read-only. */
export function MyCardsScreen() {
  const { t, problemText } = useApp();
  usePageTitle(t('app.accounts.myCards.heading'));
  const query = useQuery(myCardsQuery());
  const cards = query.data;
  const problem = query.isError ? problemOf(query.error) : undefined;
  const columns = useMemo(() => accountColumns({ t }), [t]);

  return (
    <>
      <h1>{t('app.accounts.myCards.heading')}</h1>
      <ErrorSummary id="my-cards-error" message={problem ? problemText(problem) : undefined} />
      <div aria-live="polite" className="app-live">
        {query.isPending ? <p>{t('common.loading')}</p> : null}
        {cards && cards.accounts.length === 0 ? (
          <EmptyState id="my-cards-none">{t('app.accounts.myCards.none')}</EmptyState>
        ) : null}
      </div>
      {cards && cards.accounts.length > 0 ? (
        <DataTable
          id="my-cards"
          caption={t('app.accounts.myCards.caption')}
          columns={columns}
          data={cards.accounts}
          getRowId={(a) => String(a.id)}
        />
      ) : null}
    </>
  );
}
