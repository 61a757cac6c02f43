import {
  canAdminister,
  checkSearchCriteria,
  may,
  USER_LIST_ORDER,
  USER_STATUSES,
  USER_TYPES_BY_LEVEL,
  type UserBulkAction,
  type UserBulkResult,
  type UserStatus,
  type UserType,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usersCsvUrl } from '../../api/users.ts';
import { BulkBar, BulkOutcome } from '../../frame/bulk.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { DataTable } from '../../frame/data-table.tsx';
import { ExportLink } from '../../frame/export-link.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { mayCreateUsers } from '../../frame/permissions.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useServerSort } from '../../frame/use-server-sort.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { peopleColumns } from './people-columns.tsx';
import { peopleSearchSchema, useBulkUsers, userSearchQuery } from './people-queries.ts';

/** The criteria a search needs: text of 2+ characters unless a type or status narrows it (API contract). */
export function checkCriteria(q: string, type: string, status: string): string | undefined {
  if (!q.trim() && (type || status)) return undefined;
  return checkSearchCriteria(q);
}

/** The search form: the API's criteria rule on the text field. */
const searchSchema = peopleSearchSchema.superRefine((v, ctx) => {
  const problem = checkCriteria(v.q, v.type, v.status);
  if (problem) ctx.addIssue({ code: 'custom', path: ['q'], message: problem });
});

const asType = (value: string | null, allowed: readonly UserType[]): UserType | undefined =>
  allowed.find((t) => t === value);

/** People: search users by name, user ID or e-mail, optionally by type and status; paged results. */
export function PeopleSearchScreen() {
  const { t, tCount, user, problemText } = useApp();
  usePageTitle(t('app.people.search.heading'));
  const [params, setParams] = useSearchParams();
  const viewable = USER_TYPES_BY_LEVEL.filter((type) => canAdminister(user.userType, type, 'view'));
  const q = params.get('q') ?? '';
  const type = asType(params.get('type'), viewable);
  const statusParam = params.get('status') ?? '';
  const status: UserStatus | undefined = USER_STATUSES.find((s) => s === statusParam);
  const paging = useKeysetCursor();
  const order = useServerSort(USER_LIST_ORDER);
  const searched = params.has('q') || params.has('type') || params.has('status');
  const urlProblem = searched ? checkCriteria(q, type ?? '', status ?? '') : undefined;

  const query = useQuery({
    ...userSearchQuery({ q: q.trim() || undefined, type, status, ...order.query, ...paging.cursor }),
    enabled: searched && !urlProblem,
    placeholderData: keepPreviousData,
  });
  const form = useAppForm({
    schema: searchSchema,
    defaultValues: { q, type: type ?? '', status: status ?? '' },
  });

  // The URL is the search: a new one (global search, back button) refills the form, and criteria
  // the API would refuse show on the field without a request.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL's criteria are the form's
  useEffect(() => {
    form.reset({ q, type: type ?? '', status: status ?? '' });
    if (urlProblem) form.setError('q', { type: 'manual', message: urlProblem });
  }, [q, type, status, urlProblem]);

  // A new search starts at the first page (the URL's cursor is left behind).
  const go = (next: { q: string; type: string; status: string }) => {
    const search = new URLSearchParams();
    search.set('q', next.q.trim());
    if (next.type) search.set('type', next.type);
    if (next.status) search.set('status', next.status);
    // The order chosen stays for the next search.
    setParams(order.keep(search));
  };

  const columns = useMemo(() => peopleColumns({ t }), [t]);
  const result = query.isEnabled ? query.data : undefined;
  const failed = query.isError ? problemOf(query.error) : undefined;
  const any = t('app.people.search.any');

  // Bulk actions (issue 20 item 3): the rows chosen on any page of this search, one action on them all.
  const mayBulk = may({ type: user.userType }, 'administerUsers') && result?.readOnly === false;
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
  const [asking, setAsking] = useState<UserBulkAction | undefined>();
  const [outcome, setOutcome] = useState<UserBulkResult | undefined>();
  const bulk = useBulkUsers();
  // A new search starts with nothing chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the criteria are the search
  useEffect(() => {
    setChosen(new Set());
    setOutcome(undefined);
  }, [q, type, status]);
  const run = (action: UserBulkAction) => {
    setAsking(undefined);
    setOutcome(undefined);
    bulk.mutate(
      { action, userIds: [...chosen] },
      {
        onSuccess: (answer) => {
          setOutcome(answer);
          setChosen(new Set(answer.results.filter((r) => r.outcome === 'refused').map((r) => r.userId)));
        },
      },
    );
  };

  return (
    <>
      <h1>{t('app.people.search.heading')}</h1>
      {result?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      {mayCreateUsers(user.userType) && !result?.readOnly ? (
        <p>
          <Link to="/people/new" id="create-user-link" className="app-button">
            {t('app.people.create.heading')}
          </Link>
        </p>
      ) : null}
      <search>
        <AppForm
          form={form}
          onSubmit={async (values) => go(values)}
          errorId="people-search-form-error"
          inline
        >
          <TextField
            control={form.control}
            name="q"
            id="people-q"
            type="search"
            label={t('app.people.search.criteria')}
          />
          <SelectField
            control={form.control}
            name="type"
            id="people-type"
            label={t('app.userType')}
            placeholder={any}
            options={viewable.map((code) => ({ value: code, label: t(`app.userType.${code}`) }))}
          />
          <SelectField
            control={form.control}
            name="status"
            id="people-status"
            label={t('app.people.field.status')}
            placeholder={any}
            options={USER_STATUSES.map((code) => ({ value: code, label: t(`app.status.${code}`) }))}
          />
          <SubmitButton form={form} id="people-search-submit">
            {t('app.search.submit')}
          </SubmitButton>
        </AppForm>
      </search>

      <ErrorSummary id="people-search-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {result && !failed ? (
          <p id="people-count">
            {result.total === 0
              ? t('app.people.search.none')
              : tCount('app.people.search.count', result.total)}
          </p>
        ) : null}
      </div>

      {failed || !result || result.rows.length === 0 ? (
        query.isLoading ? (
          <p role="status">{t('common.loading')}</p>
        ) : null
      ) : (
        <DataTable
          id="people-results"
          caption={t('app.people.search.results')}
          columns={columns}
          data={result.rows}
          getRowId={(row) => row.userId}
          loading={query.isFetching}
          {...order.table}
          columnChoice
          paging={paging.pager('people', result)}
          toolbar={
            <ExportLink
              id="people-export"
              href={usersCsvUrl({ q: q.trim() || undefined, type, status, ...order.query })}
            />
          }
          selection={
            mayBulk
              ? {
                  selected: chosen,
                  onChange: setChosen,
                  label: (row) => t('app.table.selectRow', row.userId),
                  allLabel: t('app.table.selectAll'),
                }
              : undefined
          }
        />
      )}
      {mayBulk && chosen.size > 0 ? (
        <BulkBar
          id="people-bulk"
          legend={tCount('app.people.bulk.selected', chosen.size)}
          onClear={() => setChosen(new Set())}
        >
          {(['unlock', 'deactivate', 'reactivate'] as const).map((action) => (
            <button
              key={action}
              type="button"
              className={`app-button${action === 'deactivate' ? ' app-button--danger' : ''}`}
              id={`people-bulk-${action}`}
              disabled={bulk.isPending}
              onClick={() => setAsking(action)}
            >
              {t(`app.people.action.${action}`)}
            </button>
          ))}
        </BulkBar>
      ) : null}
      <BulkOutcome
        id="people-bulk-outcome"
        results={outcome?.results}
        summaryKey="app.people.bulk.outcome"
        refusedKey="app.people.bulk.refused"
        nameOf={(r) => r.userId}
      />
      <ErrorSummary
        id="people-bulk-error"
        message={bulk.isError ? problemText(problemOf(bulk.error)) : undefined}
      />
      <ConfirmDialog
        open={asking !== undefined}
        idPrefix="people-bulk-confirm"
        title={asking ? tCount(`app.people.bulk.confirm.${asking}`, chosen.size) : ''}
        body={t('app.people.bulk.confirmBody')}
        confirmLabel={asking ? t(`app.people.action.${asking}`) : ''}
        onConfirm={() => {
          if (asking) run(asking);
        }}
        onCancel={() => setAsking(undefined)}
      />
    </>
  );
}
