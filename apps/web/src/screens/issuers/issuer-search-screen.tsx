import { ISSUER_LIST_ORDER, may } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { issuersCsvUrl } from '../../api/issuers.ts';
import { DataTable } from '../../frame/data-table.tsx';
import { ExportLink } from '../../frame/export-link.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useServerSort } from '../../frame/use-server-sort.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { issuerColumns } from './issuer-columns.tsx';
import { issuerListQuery, issuerSearchSchema } from './issuers-queries.ts';

/** The URL query of criteria and a page (empty criteria and page 1 left out). */
function searchOf(q: string, page = 1): URLSearchParams {
  const query = new URLSearchParams();
  if (q.trim()) query.set('q', q.trim());
  if (page > 1) query.set('page', String(page));
  return query;
}

/**
 * Issuers in the caller's scope (Z all, H its issuer group's, I its own), searched by number, name or
 * ICA (2+ characters) or all of them; paged, with a page jump. The URL holds the criteria and the page.
 */
export function IssuerSearchScreen() {
  const { t, tCount, user, problemText } = useApp();
  usePageTitle(t('app.issuers.search.heading'));
  const [params, setParams] = useSearchParams();
  const order = useServerSort(ISSUER_LIST_ORDER);
  const q = (params.get('q') ?? '').trim();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const valid = issuerSearchSchema.safeParse({ q }).success;
  const query = useQuery({
    ...issuerListQuery({ q, page, ...order.query }),
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  const form = useAppForm({ schema: issuerSearchSchema, defaultValues: { q } });

  // A new URL (back button) refills the criteria it shows; criteria typed into the URL are checked too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL's criteria are the input
  useEffect(() => {
    form.reset({ q });
    if (!valid) void form.trigger('q');
  }, [q]);

  const columns = useMemo(() => issuerColumns({ t }), [t]);
  const result = query.data;
  const failed = query.isError ? problemOf(query.error) : undefined;

  return (
    <>
      <h1>{t('app.issuers.search.heading')}</h1>
      <div className="app-actions">
        {may({ type: user.userType }, 'createIssuer') ? (
          <Link to="/issuers/new" id="create-issuer-link" className="app-button">
            {t('app.issuers.create.heading')}
          </Link>
        ) : null}
        {may({ type: user.userType }, 'viewIssuerGroups') ? (
          <Link to="/issuer-groups" id="issuer-groups-link" className="app-button">
            {t('app.issuerGroups.heading')}
          </Link>
        ) : null}
      </div>
      <search>
        <AppForm
          form={form}
          onSubmit={async (values) => setParams(order.keep(searchOf(values.q)))}
          errorId="issuer-search-form-error"
          inline
        >
          <TextField
            control={form.control}
            name="q"
            id="issuer-q"
            type="search"
            label={t('app.issuers.search.criteria')}
          />
          <SubmitButton form={form} id="issuer-search-submit">
            {t('app.search.submit')}
          </SubmitButton>
        </AppForm>
      </search>

      <ErrorSummary id="issuer-search-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {result && !failed ? (
          <p id="issuer-count">
            {result.total === 0
              ? t('app.issuers.search.none')
              : tCount('app.issuers.search.count', result.total)}
          </p>
        ) : null}
      </div>

      {failed || !valid || result?.rows.length === 0 ? null : (
        <DataTable
          id="issuer-results"
          caption={t('app.issuers.search.heading')}
          columns={columns}
          data={result?.rows}
          getRowId={(row) => row.number}
          loading={query.isFetching}
          {...order.table}
          toolbar={<ExportLink id="issuers-export" href={issuersCsvUrl({ q, ...order.query })} />}
          paging={
            result
              ? {
                  idPrefix: 'issuer',
                  page: result.page,
                  pages: result.pageCount,
                  onGo: (next) => setParams(order.keep(searchOf(q, next))),
                }
              : undefined
          }
        />
      )}
    </>
  );
}
