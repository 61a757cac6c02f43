import { COMPANY_LIST_ORDER, may } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { companiesCsvUrl } from '../../api/organisations.ts';
import { DataTable } from '../../frame/data-table.tsx';
import { ExportLink } from '../../frame/export-link.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useServerSort } from '../../frame/use-server-sort.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { companyColumns } from './company-columns.tsx';
import { companyListQuery, companySearchSchema } from './organisation-queries.ts';

/** The URL query of criteria (empty left out); a new search starts at the first page. */
function searchOf(q: string): URLSearchParams {
  const query = new URLSearchParams();
  if (q.trim()) query.set('q', q.trim());
  return query;
}

/**
 * Organisation: the companies in the caller's scope, searched by name or number (2+ characters, the
 * People rules) or all of them when no criteria are given; paged by key, previous and next (docs/paging.md).
 * The URL holds the criteria and the page's cursor.
 */
export function CompanySearchScreen() {
  const { t, tCount, user, problemText } = useApp();
  usePageTitle(t('app.org.search.heading'));
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const paging = useKeysetCursor();
  const order = useServerSort(COMPANY_LIST_ORDER);
  const valid = companySearchSchema.safeParse({ q }).success;
  const query = useQuery({
    ...companyListQuery({ q, ...order.query, ...paging.cursor }),
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  const form = useAppForm({ schema: companySearchSchema, defaultValues: { q } });

  // A new URL (back button) refills the criteria it shows; criteria typed into the URL are checked too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL's criteria are the input
  useEffect(() => {
    form.reset({ q });
    if (!valid) void form.trigger('q');
  }, [q]);

  const columns = useMemo(() => companyColumns({ t }), [t]);
  const result = query.data;
  const failed = query.isError ? problemOf(query.error) : undefined;

  return (
    <>
      <h1>{t('app.org.search.heading')}</h1>
      {may({ type: user.userType }, 'createCompany') ? (
        <p>
          <Link to="/organisation/new" id="create-company-link" className="app-button">
            {t('app.org.create.heading')}
          </Link>
        </p>
      ) : null}
      <search>
        <AppForm
          form={form}
          onSubmit={async (values) => setParams(order.keep(searchOf(values.q)))}
          errorId="company-search-form-error"
          inline
        >
          <TextField
            control={form.control}
            name="q"
            id="company-q"
            type="search"
            label={t('app.org.search.criteria')}
          />
          <SubmitButton form={form} id="company-search-submit">
            {t('app.search.submit')}
          </SubmitButton>
        </AppForm>
      </search>

      <ErrorSummary id="company-search-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {result && !failed ? (
          <p id="company-count">
            {result.total === 0 ? t('app.org.search.none') : tCount('app.org.search.count', result.total)}
          </p>
        ) : null}
      </div>

      {failed || !valid || result?.rows.length === 0 ? null : (
        <DataTable
          id="company-results"
          caption={t('app.org.search.results')}
          columns={columns}
          data={result?.rows}
          getRowId={(row) => row.number}
          loading={query.isFetching}
          {...order.table}
          paging={result ? paging.pager('company', result) : undefined}
          toolbar={<ExportLink id="companies-export" href={companiesCsvUrl({ q, ...order.query })} />}
        />
      )}
    </>
  );
}
