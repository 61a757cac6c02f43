import {
  ACCOUNT_STATUSES,
  type AccountGroupSummary,
  type AccountList,
  mayOnAccounts,
} from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { listAccountGroups, searchAccounts } from '../../api/accounts.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { Paging } from '../../frame/paging.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { checkCardholderCriteria } from './cardholder-search-screen.tsx';
import { AccountStatusPill, codeOfError, fullName } from './shared.tsx';

type Loaded =
  | { state: 'loading' }
  | { state: 'done'; result: AccountList }
  | { state: 'failed'; problem: string };

/**
 * A company's card accounts, masked, searched by the last four digits or the cardholder's name and
 * filtered by account group and status; paged with a page jump.
 */
export function AccountSearchScreen() {
  const { t, user, problemText, languageTag } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounts.accounts.heading', number));
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const group = params.get('group') ?? '';
  const status = params.get('status') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [draft, setDraft] = useState({ q, group, status });
  const [problem, setProblem] = useState<string | undefined>();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [groups, setGroups] = useState<AccountGroupSummary[]>([]);

  useEffect(() => setDraft({ q, group, status }), [q, group, status]);

  useEffect(() => {
    if (!mayOnAccounts(user.userType, 'viewAccountGroups')) return;
    const controller = new AbortController();
    listAccountGroups(number, controller.signal).then(
      (list) => setGroups(list.rows),
      () => undefined,
    );
    return () => controller.abort();
  }, [number, user.userType]);

  useEffect(() => {
    const found = checkCardholderCriteria(q);
    if (found) {
      setProblem(found);
      return;
    }
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    searchAccounts(
      number,
      { q: q.trim() || undefined, group: group || undefined, status: status || undefined, page },
      controller.signal,
    ).then(
      (result) => setLoaded({ state: 'done', result }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed', problem: codeOfError(error) });
      },
    );
    return () => controller.abort();
  }, [number, q, group, status, page]);

  const go = (next: { q: string; group: string; status: string; page?: number }) => {
    const query = new URLSearchParams();
    if (next.q.trim()) query.set('q', next.q.trim());
    if (next.group) query.set('group', next.group);
    if (next.status) query.set('status', next.status);
    if (next.page && next.page > 1) query.set('page', String(next.page));
    setParams(query);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkCardholderCriteria(draft.q);
    setProblem(found);
    if (found) {
      document.getElementById('account-q')?.focus();
      return;
    }
    go(draft);
  };

  const result = loaded.state === 'done' ? loaded.result : undefined;
  const count = new Intl.NumberFormat(languageTag);
  const base = `/organisation/${encodeURIComponent(number)}`;

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
        <form className="app-form app-form--inline" onSubmit={submit} noValidate>
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="account-q">
              {t('app.accounts.accounts.criteria')}
            </label>
            <input
              id="account-q"
              className="cp-field__input"
              type="search"
              value={draft.q}
              onChange={(e) => setDraft({ ...draft, q: e.target.value })}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'account-q-error' : undefined}
            />
            <FieldError id="account-q-error" message={problem ? problemText(problem) : undefined} />
          </div>
          {groups.length > 0 ? (
            <div className="cp-field">
              <label className="cp-field__label" htmlFor="account-group">
                {t('app.accounts.field.group')}
              </label>
              <select
                id="account-group"
                className="cp-field__input"
                value={draft.group}
                onChange={(e) => setDraft({ ...draft, group: e.target.value })}
              >
                <option value="">{t('app.people.search.any')}</option>
                {groups.map((g) => (
                  <option key={g.id} value={String(g.id)}>
                    {g.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="account-status">
              {t('app.people.field.status')}
            </label>
            <select
              id="account-status"
              className="cp-field__input"
              value={draft.status}
              onChange={(e) => setDraft({ ...draft, status: e.target.value })}
            >
              <option value="">{t('app.people.search.any')}</option>
              {ACCOUNT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`app.accounts.status.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="app-button app-button--primary" id="account-search-submit">
            {t('app.search.submit')}
          </button>
        </form>
      </search>

      <ErrorSummary
        id="account-search-error"
        message={loaded.state === 'failed' ? problemText(loaded.problem) : undefined}
      />
      <div aria-live="polite" className="app-live">
        {loaded.state === 'loading' ? <p>{t('common.loading')}</p> : null}
        {result ? (
          <p id="account-count">
            {result.total === 0
              ? t('app.accounts.accounts.none')
              : t('app.accounts.accounts.count', count.format(result.total))}
          </p>
        ) : null}
      </div>

      {result && result.rows.length > 0 ? (
        <>
          <TableWrap captionId="account-results-caption">
            <table className="app-table" id="account-results">
              <caption id="account-results-caption">{t('app.accounts.accounts.results')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.accounts.field.number')}</th>
                  <th scope="col">{t('app.accounts.field.cardholder')}</th>
                  <th scope="col">{t('app.accounts.field.group')}</th>
                  <th scope="col">{t('app.people.field.status')}</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row">
                      <Link to={`${base}/accounts/${row.id}`} className="app-account-number">
                        {row.maskedNumber}
                      </Link>
                    </th>
                    <td>
                      {row.cardholder ? (
                        <Link to={`${base}/cardholders/${row.cardholder.id}`}>
                          {fullName(row.cardholder)}
                        </Link>
                      ) : null}
                    </td>
                    <td>{row.group?.name ?? ''}</td>
                    <td>
                      <AccountStatusPill status={row.status} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Paging
            idPrefix="account"
            page={result.page}
            pages={result.pageCount}
            onGo={(next) => go({ q, group, status, page: next })}
          />
        </>
      ) : null}
    </>
  );
}
