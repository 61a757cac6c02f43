import {
  canAdminister,
  checkSearchCriteria,
  USER_STATUSES,
  USER_TYPES_BY_LEVEL,
  type UserSearchResult,
  type UserStatus,
  type UserType,
} from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { searchUsers } from '../../api/users.ts';
import { Paging } from '../../frame/paging.tsx';
import { mayCreateUsers } from '../../frame/permissions.ts';
import { StatusPill } from '../../frame/status-pill.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';

type Loaded =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; result: UserSearchResult }
  | { state: 'failed'; problem: string };

/** The criteria a search needs: text of 2+ characters unless a type or status narrows it (API contract). */
export function checkCriteria(q: string, type: string, status: string): string | undefined {
  if (!q.trim() && (type || status)) return undefined;
  return checkSearchCriteria(q);
}

const asType = (value: string | null, allowed: readonly UserType[]): UserType | undefined =>
  allowed.find((t) => t === value);

/** People: search users by name, user ID or e-mail, optionally by type and status; paged results. */
export function PeopleSearchScreen() {
  const { t, user, problemText, languageTag } = useApp();
  usePageTitle(t('app.people.search.heading'));
  const [params, setParams] = useSearchParams();
  const viewable = USER_TYPES_BY_LEVEL.filter((type) => canAdminister(user.userType, type, 'view'));
  const q = params.get('q') ?? '';
  const type = asType(params.get('type'), viewable);
  const statusParam = params.get('status') ?? '';
  const status: UserStatus | undefined = USER_STATUSES.find((s) => s === statusParam);
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const searched = params.has('q') || params.has('type') || params.has('status');

  const [draft, setDraft] = useState({ q, type: type ?? '', status: status ?? '' });
  const [problem, setProblem] = useState<string | undefined>();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'idle' });

  // The URL is the search: a new one (global search, back button) refills the form.
  useEffect(() => setDraft({ q, type: type ?? '', status: status ?? '' }), [q, type, status]);

  useEffect(() => {
    if (!searched || checkCriteria(q, type ?? '', status ?? '')) {
      setLoaded({ state: 'idle' });
      if (searched) setProblem(checkCriteria(q, type ?? '', status ?? ''));
      return;
    }
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    searchUsers({ q: q.trim() || undefined, type, status, page }, controller.signal).then(
      (result) => setLoaded({ state: 'done', result }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({ state: 'failed', problem: error instanceof ApiError ? error.code : 'error.generic' });
      },
    );
    return () => controller.abort();
  }, [searched, q, type, status, page]);

  const go = (next: { q: string; type: string; status: string; page?: number }) => {
    const query = new URLSearchParams();
    query.set('q', next.q.trim());
    if (next.type) query.set('type', next.type);
    if (next.status) query.set('status', next.status);
    if (next.page && next.page > 1) query.set('page', String(next.page));
    setParams(query);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkCriteria(draft.q, draft.type, draft.status);
    setProblem(found);
    if (found) {
      document.getElementById('people-q')?.focus();
      return;
    }
    go(draft);
  };

  const result = loaded.state === 'done' ? loaded.result : undefined;
  const pages = result?.pageCount ?? 1;
  const number = new Intl.NumberFormat(languageTag);

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
        <form className="app-form app-form--inline" onSubmit={submit} noValidate>
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="people-q">
              {t('app.people.search.criteria')}
            </label>
            <input
              id="people-q"
              className="cp-field__input"
              type="search"
              value={draft.q}
              onChange={(e) => setDraft({ ...draft, q: e.target.value })}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'people-q-error' : undefined}
            />
            <FieldError id="people-q-error" message={problem ? problemText(problem) : undefined} />
          </div>
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="people-type">
              {t('app.userType')}
            </label>
            <select
              id="people-type"
              className="cp-field__input"
              value={draft.type}
              onChange={(e) => setDraft({ ...draft, type: e.target.value })}
            >
              <option value="">{t('app.people.search.any')}</option>
              {viewable.map((code) => (
                <option key={code} value={code}>
                  {t(`app.userType.${code}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="people-status">
              {t('app.people.field.status')}
            </label>
            <select
              id="people-status"
              className="cp-field__input"
              value={draft.status}
              onChange={(e) => setDraft({ ...draft, status: e.target.value })}
            >
              <option value="">{t('app.people.search.any')}</option>
              {USER_STATUSES.map((code) => (
                <option key={code} value={code}>
                  {t(`app.status.${code}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="app-button app-button--primary" id="people-search-submit">
            {t('app.search.submit')}
          </button>
        </form>
      </search>

      <ErrorSummary
        id="people-search-error"
        message={loaded.state === 'failed' ? problemText(loaded.problem) : undefined}
      />
      <div aria-live="polite" className="app-live">
        {loaded.state === 'loading' ? <p>{t('common.loading')}</p> : null}
        {result ? (
          <p id="people-count">
            {result.total === 0
              ? t('app.people.search.none')
              : t('app.people.search.count', number.format(result.total))}
          </p>
        ) : null}
      </div>

      {result && result.rows.length > 0 ? (
        <>
          <TableWrap captionId="people-results-caption">
            <table className="app-table" id="people-results">
              <caption id="people-results-caption">{t('app.people.search.results')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.userId')}</th>
                  <th scope="col">{t('app.people.field.name')}</th>
                  <th scope="col">{t('app.people.field.email')}</th>
                  <th scope="col">{t('app.userType')}</th>
                  <th scope="col">{t('app.people.field.status')}</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((row) => (
                  <tr key={row.userId}>
                    <th scope="row">
                      <Link to={`/people/${encodeURIComponent(row.userId)}`}>{row.userId}</Link>
                    </th>
                    <td>{[row.firstName, row.lastName].filter(Boolean).join(' ')}</td>
                    <td>{row.email}</td>
                    <td>{t(`app.userType.${row.userType}`)}</td>
                    <td>
                      <StatusPill status={row.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Paging
            idPrefix="people"
            page={result.page}
            pages={pages}
            onGo={(next) => go({ q, type: type ?? '', status: status ?? '', page: next })}
          />
        </>
      ) : null}
    </>
  );
}
