import {
  canAdminister,
  checkSearchCriteria,
  USER_STATUSES,
  USER_TYPES_BY_LEVEL,
  type UserStatus,
  type UserType,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable, type SortingState } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { mayCreateUsers } from '../../frame/permissions.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { peopleColumns } from './people-columns.tsx';
import { peopleSearchSchema, userSearchQuery } from './people-queries.ts';

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

/** The server answers by name (last, first, user ID); the grid shows that order and offers no other. */
const SERVER_ORDER: SortingState = [{ id: 'name', desc: false }];

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
  const searched = params.has('q') || params.has('type') || params.has('status');
  const urlProblem = searched ? checkCriteria(q, type ?? '', status ?? '') : undefined;

  const query = useQuery({
    ...userSearchQuery({ q: q.trim() || undefined, type, status, ...paging.cursor }),
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
    setParams(search);
  };

  const columns = useMemo(() => peopleColumns({ t }), [t]);
  const result = query.isEnabled ? query.data : undefined;
  const failed = query.isError ? problemOf(query.error) : undefined;
  const any = t('app.people.search.any');

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
          sorting={SERVER_ORDER}
          columnChoice
          paging={paging.pager('people', result)}
        />
      )}
    </>
  );
}
