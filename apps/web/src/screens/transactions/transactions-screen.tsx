import { checkSearchCriteria, isLastFourSearch, TRANSACTION_STATUSES } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import type { TransactionSearch } from '../../api/transactions.ts';
import { DataTable, type SortingState } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { DateField } from '../../frame/form/date-field.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { applyServerError, useAppForm } from '../../frame/form/use-app-form.ts';
import { mayExportTransactions, mayImportTransactions } from '../../frame/permissions.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { transactionColumns } from './transaction-columns.tsx';
import { transactionSearchQuery } from './transactions-queries.ts';

/** The filters as the form holds them (text; the server checks and names what is wrong). */
const filterSchema = z.object({
  from: z.string(),
  to: z.string(),
  status: z.string(),
  currency: z.string(),
  min: z.string(),
  max: z.string(),
  mcc: z.string(),
  // The search rule before sending (seed 001 §5: at least 2 characters), the last four digits aside.
  q: z.string().superRefine((q, ctx) => {
    const problem = q.trim() && !isLastFourSearch(q) ? checkSearchCriteria(q) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  order: z.string(),
});
type Filters = z.infer<typeof filterSchema>;
const FILTERS = Object.keys(filterSchema.shape) as (keyof Filters)[];

const filtersOf = (params: URLSearchParams): Filters =>
  Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ''])) as Filters;

/**
 * The Transaction Summary (issue 15 item 3): the transactions of the cards in the user's scope, newest
 * (or oldest) first, filtered by dates, status, amount range in a currency, merchant category and
 * merchant or card; paged by key with a page jump while the matches are counted (up to 10,000; past
 * it "Result set is too large" and previous / next only). The URL holds filters and position.
 */
export function TransactionsScreen() {
  const { t, tCount, format, problemText, user } = useApp();
  usePageTitle(t('app.transactions.heading'));
  const [params, setParams] = useSearchParams();
  const applied = filtersOf(params);
  const position: TransactionSearch = {
    after: params.get('after') ?? undefined,
    before: params.get('before') ?? undefined,
    page: params.get('page') ?? undefined,
  };
  const query = useQuery({
    ...transactionSearchQuery({ ...applied, ...position }),
    placeholderData: keepPreviousData,
  });
  const form = useAppForm({ schema: filterSchema, defaultValues: applied });
  const [jump, setJump] = useState('');
  const key = params.toString();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL (key) is the filter
  useEffect(() => form.reset(applied), [key]);
  // A filter the server refused shows on its field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per answer
  useEffect(() => {
    if (query.isError) applyServerError(form, query.error);
  }, [query.error]);

  const go = (filters: Filters, move: Partial<Record<'after' | 'before' | 'page' | 'n', string>> = {}) => {
    const next = new URLSearchParams();
    for (const name of FILTERS) if (filters[name].trim()) next.set(name, filters[name].trim());
    for (const [name, value] of Object.entries(move)) if (value) next.set(name, value);
    setParams(next);
  };

  const columns = useMemo(() => transactionColumns({ t, format }), [t, format]);
  const result = query.data;
  const failed = query.isError ? problemOf(query.error) : undefined;
  const order: SortingState = [{ id: 'transactionDate', desc: applied.order !== 'oldest' }];
  const shownPage = result?.page || Number(params.get('n') ?? '0') || undefined;
  const any = t('app.people.search.any');

  return (
    <>
      <h1>{t('app.transactions.heading')}</h1>
      {mayImportTransactions(user.userType) || mayExportTransactions(user.userType) ? (
        <p className="app-actions">
          {mayImportTransactions(user.userType) ? (
            <Link to="/transactions/import" id="transactions-import-link">
              {t('app.transactions.import.link')}
            </Link>
          ) : null}
          {mayExportTransactions(user.userType) ? (
            <Link to="/transactions/exports" id="transactions-export-link">
              {t('app.transactions.export.link')}
            </Link>
          ) : null}
        </p>
      ) : null}
      <search>
        <AppForm
          form={form}
          onSubmit={async (values) => go(values)}
          errorId="transactions-filter-error"
          inline
        >
          <DateField
            control={form.control}
            name="from"
            id="transactions-from"
            label={t('app.transactions.filter.from')}
          />
          <DateField
            control={form.control}
            name="to"
            id="transactions-to"
            label={t('app.transactions.filter.to')}
          />
          <SelectField
            control={form.control}
            name="status"
            id="transactions-status"
            label={t('app.transactions.field.status')}
            placeholder={any}
            options={TRANSACTION_STATUSES.map((s) => ({
              value: s,
              label: t(`app.transactions.status.${s}`),
            }))}
          />
          <TextField
            control={form.control}
            name="q"
            id="transactions-q"
            type="search"
            label={t('app.transactions.filter.q')}
          />
          <TextField
            control={form.control}
            name="mcc"
            id="transactions-mcc"
            label={t('app.transactions.filter.mcc')}
            inputMode="numeric"
          />
          <TextField
            control={form.control}
            name="currency"
            id="transactions-currency"
            label={t('app.transactions.filter.currency')}
            autoCapitalize="characters"
          />
          <TextField
            control={form.control}
            name="min"
            id="transactions-min"
            label={t('app.transactions.filter.min')}
            inputMode="decimal"
          />
          <TextField
            control={form.control}
            name="max"
            id="transactions-max"
            label={t('app.transactions.filter.max')}
            inputMode="decimal"
          />
          <SelectField
            control={form.control}
            name="order"
            id="transactions-order"
            label={t('app.transactions.filter.order')}
            options={[
              { value: 'newest', label: t('app.transactions.order.newest') },
              { value: 'oldest', label: t('app.transactions.order.oldest') },
            ]}
            placeholder={t('app.transactions.order.newest')}
          />
          <SubmitButton form={form} id="transactions-submit">
            {t('app.search.submit')}
          </SubmitButton>
        </AppForm>
      </search>

      <ErrorSummary id="transactions-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {query.isLoading ? <p>{t('common.loading')}</p> : null}
        {result && !failed ? (
          <p id="transactions-count">
            {result.total === 0
              ? t('app.transactions.none')
              : result.tooLarge
                ? t('app.transactions.tooLarge', format.number(result.total))
                : tCount('app.transactions.count', result.total)}
          </p>
        ) : null}
      </div>
      {result?.tooLarge ? (
        <p className="app-notice" id="transactions-too-large">
          {problemText('search.tooLarge')}
        </p>
      ) : null}

      {result && !failed && result.rows.length > 0 ? (
        <>
          <DataTable
            id="transactions-results"
            caption={t('app.transactions.results')}
            columns={columns}
            data={result.rows}
            getRowId={(row) => String(row.id)}
            loading={query.isFetching}
            sorting={order}
            // The date's header turns the order round: the same newest / oldest the filter offers.
            sortable={['transactionDate']}
            onSortingChange={(next) => go({ ...applied, order: next[0]?.desc === false ? 'oldest' : '' })}
            columnChoice
            initiallyHidden={['postingDate', 'reference']}
            paging={{
              keyset: {
                idPrefix: 'transactions',
                previousKey: result.prevCursor,
                nextKey: result.nextCursor,
                onPrevious: (cursor) => go(applied, { before: cursor, n: String((shownPage ?? 2) - 1) }),
                onNext: (cursor) => go(applied, { after: cursor, n: String((shownPage ?? 0) + 1) }),
                pageNumber: shownPage,
                pageCount: result.tooLarge ? undefined : result.pageCount,
              },
            }}
          />
          {!result.tooLarge && result.pageCount > 1 ? (
            // The same page jump as every numbered list (frame/paging.tsx): inline under the pager.
            <form
              className="app-jump"
              id="transactions-jump-form"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                if (jump.trim()) go(applied, { page: jump.trim() });
              }}
            >
              <label htmlFor="transactions-jump">
                {t('app.transactions.jump', format.number(result.pageCount))}
              </label>
              <input
                id="transactions-jump"
                inputMode="numeric"
                size={4}
                value={jump}
                onChange={(event) => setJump(event.target.value)}
              />
              <button type="submit" className="app-button" id="transactions-jump-go">
                {t('app.transactions.jumpGo')}
              </button>
            </form>
          ) : null}
        </>
      ) : null}
    </>
  );
}
