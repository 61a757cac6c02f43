import { CARDHOLDER_LIST_ORDER } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { z } from 'zod';
import { listCsvUrl } from '../../api/accounts.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { DataTable } from '../../frame/data-table.tsx';
import { ExportLink } from '../../frame/export-link.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useServerSort } from '../../frame/use-server-sort.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { cardholderColumns } from './accounts-columns.tsx';
import { cardholderSearchQuery, criteriaSchema } from './accounts-queries.ts';
import { checkCardholderCriteria } from './criteria.ts';

export { checkCardholderCriteria };

const searchSchema = criteriaSchema({ status: z.string() });

/** A company's cardholders, searched by name or the last four digits of a card; paged by key (docs/paging.md). */
export function CardholderSearchScreen() {
  const { t, tCount, problemText, languageTag } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounts.cardholders.heading', number));
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = params.get('status') ?? '';
  const paging = useKeysetCursor();
  const order = useServerSort(CARDHOLDER_LIST_ORDER);
  const urlProblem = checkCardholderCriteria(q);
  const query = useQuery({
    ...cardholderSearchQuery(number, {
      q: q.trim() || undefined,
      status: status || undefined,
      ...order.query,
      ...paging.cursor,
    }),
    enabled: !urlProblem,
    placeholderData: keepPreviousData,
  });
  const form = useAppForm({ schema: searchSchema, defaultValues: { q, status } });

  // The URL is the search: a new one refills the form; criteria the API would refuse show on the field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL's criteria are the form's
  useEffect(() => {
    form.reset({ q, status });
    if (urlProblem) form.setError('q', { type: 'manual', message: urlProblem });
  }, [q, status, urlProblem]);

  // A new search starts at the first page (the URL's cursor is left behind).
  const go = (next: { q: string; status: string }) => {
    const search = new URLSearchParams();
    if (next.q.trim()) search.set('q', next.q.trim());
    if (next.status) search.set('status', next.status);
    setParams(order.keep(search));
  };

  const columns = useMemo(() => cardholderColumns({ t, languageTag, number }), [t, languageTag, number]);
  const result = query.isEnabled ? query.data : undefined;
  const failed = query.isError ? problemOf(query.error) : undefined;

  return (
    <>
      <h1>{t('app.accounts.cardholders.heading', number)}</h1>
      <CompanyTabs number={number} />
      {result?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <search>
        <AppForm
          form={form}
          onSubmit={async (values) => go(values)}
          errorId="cardholder-search-form-error"
          inline
        >
          <TextField
            control={form.control}
            name="q"
            id="cardholder-q"
            type="search"
            label={t('app.accounts.cardholders.criteria')}
          />
          <SelectField
            control={form.control}
            name="status"
            id="cardholder-status"
            label={t('app.people.field.status')}
            placeholder={t('app.people.search.any')}
            options={[
              { value: 'active', label: t('app.status.Active') },
              { value: 'inactive', label: t('app.status.Inactive') },
            ]}
          />
          <SubmitButton form={form} id="cardholder-search-submit">
            {t('app.search.submit')}
          </SubmitButton>
        </AppForm>
      </search>

      <ErrorSummary id="cardholder-search-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {query.isLoading ? <p>{t('common.loading')}</p> : null}
        {result && !failed ? (
          <p id="cardholder-count">
            {result.total === 0
              ? t('app.accounts.cardholders.none')
              : tCount('app.accounts.cardholders.count', result.total)}
          </p>
        ) : null}
      </div>

      {result && !failed && result.rows.length > 0 ? (
        <DataTable
          id="cardholder-results"
          caption={t('app.accounts.cardholders.results')}
          columns={columns}
          data={result.rows}
          getRowId={(row) => String(row.id)}
          loading={query.isFetching}
          {...order.table}
          columnChoice
          paging={paging.pager('cardholder', result)}
          toolbar={
            <ExportLink
              id="cardholders-export"
              href={listCsvUrl(number, 'cardholders', {
                q: q.trim() || undefined,
                status: status || undefined,
                ...order.query,
              })}
            />
          }
        />
      ) : null}
    </>
  );
}
