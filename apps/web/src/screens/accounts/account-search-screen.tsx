import { ACCOUNT_LIST_ORDER, ACCOUNT_STATUSES, may } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
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
import { AccountBulkMove } from './account-bulk-move.tsx';
import { accountColumns } from './accounts-columns.tsx';
import { accountGroupsQuery, accountSearchQuery, criteriaSchema } from './accounts-queries.ts';
import { checkCardholderCriteria } from './criteria.ts';

const searchSchema = criteriaSchema({ group: z.string(), status: z.string() });

/**
 * A company's card accounts, masked, searched by the last four digits or the cardholder's name and
 * filtered by account group and status; paged by key (docs/paging.md).
 */
export function AccountSearchScreen() {
  const { t, tCount, user, problemText } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounts.accounts.heading', number));
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const group = params.get('group') ?? '';
  const status = params.get('status') ?? '';
  const paging = useKeysetCursor();
  const order = useServerSort(ACCOUNT_LIST_ORDER);
  const urlProblem = checkCardholderCriteria(q);
  const query = useQuery({
    ...accountSearchQuery(number, {
      q: q.trim() || undefined,
      group: group || undefined,
      status: status || undefined,
      ...order.query,
      ...paging.cursor,
    }),
    enabled: !urlProblem,
    placeholderData: keepPreviousData,
  });
  const groupsQuery = useQuery({
    ...accountGroupsQuery(number),
    enabled: may({ type: user.userType }, 'viewAccountGroups'),
  });
  const groups = groupsQuery.data?.rows ?? [];
  const form = useAppForm({ schema: searchSchema, defaultValues: { q, group, status } });

  // The URL is the search: a new one refills the form; criteria the API would refuse show on the field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL's criteria are the form's
  useEffect(() => {
    form.reset({ q, group, status });
    if (urlProblem) form.setError('q', { type: 'manual', message: urlProblem });
  }, [q, group, status, urlProblem]);

  // A new search starts at the first page (the URL's cursor is left behind).
  const go = (next: { q: string; group: string; status: string }) => {
    const search = new URLSearchParams();
    if (next.q.trim()) search.set('q', next.q.trim());
    if (next.group) search.set('group', next.group);
    if (next.status) search.set('status', next.status);
    setParams(order.keep(search));
  };

  const columns = useMemo(() => accountColumns({ t, number, withHolder: true }), [t, number]);
  const result = query.isEnabled ? query.data : undefined;
  const failed = query.isError ? problemOf(query.error) : undefined;
  const any = t('app.people.search.any');

  // Move to a group (issue 20 item 3): the accounts chosen on any page of this search.
  const mayMove = result?.canModify === true && !result.readOnly && groups.some((g) => g.active);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
  // The masked number of every account seen, to name a refused one after its page has gone.
  const seen = useRef(new Map<number, string>());
  for (const row of result?.rows ?? []) seen.current.set(row.id, row.maskedNumber);
  // A new search starts with nothing chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the criteria are the search
  useEffect(() => setChosen(new Set()), [q, group, status]);

  return (
    <>
      <h1>{t('app.accounts.accounts.heading', number)}</h1>
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
          errorId="account-search-form-error"
          inline
        >
          <TextField
            control={form.control}
            name="q"
            id="account-q"
            type="search"
            label={t('app.accounts.accounts.criteria')}
          />
          {groups.length > 0 ? (
            <SelectField
              control={form.control}
              name="group"
              id="account-group"
              label={t('app.accounts.field.group')}
              placeholder={any}
              options={groups.map((g) => ({ value: String(g.id), label: g.name }))}
            />
          ) : null}
          <SelectField
            control={form.control}
            name="status"
            id="account-status"
            label={t('app.people.field.status')}
            placeholder={any}
            options={ACCOUNT_STATUSES.map((s) => ({ value: s, label: t(`app.accounts.status.${s}`) }))}
          />
          <SubmitButton form={form} id="account-search-submit">
            {t('app.search.submit')}
          </SubmitButton>
        </AppForm>
      </search>

      <ErrorSummary id="account-search-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {query.isLoading ? <p>{t('common.loading')}</p> : null}
        {result && !failed ? (
          <p id="account-count">
            {result.total === 0
              ? t('app.accounts.accounts.none')
              : tCount('app.accounts.accounts.count', result.total)}
          </p>
        ) : null}
      </div>

      {result && !failed && result.rows.length > 0 ? (
        <DataTable
          id="account-results"
          caption={t('app.accounts.accounts.results')}
          columns={columns}
          data={result.rows}
          getRowId={(row) => String(row.id)}
          loading={query.isFetching}
          {...order.table}
          columnChoice
          paging={paging.pager('account', result)}
          selection={
            mayMove
              ? {
                  selected: chosen,
                  onChange: setChosen,
                  label: (row) => t('app.table.selectRow', row.maskedNumber),
                  allLabel: t('app.table.selectAll'),
                }
              : undefined
          }
          toolbar={
            <ExportLink
              id="accounts-export"
              href={listCsvUrl(number, 'accounts', {
                q: q.trim() || undefined,
                group: group || undefined,
                status: status || undefined,
                ...order.query,
              })}
            />
          }
        />
      ) : null}
      {mayMove ? (
        <AccountBulkMove
          number={number}
          chosen={chosen}
          onChosenChange={setChosen}
          groups={groups}
          numberOf={(id) => seen.current.get(id) ?? String(id)}
        />
      ) : null}
    </>
  );
}
