import { checkSearchCriteria, type IssuerList, mayOnIssuers } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { searchIssuers } from '../../api/issuers.ts';
import { Paging } from '../../frame/paging.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';

type Loaded =
  | { state: 'loading' }
  | { state: 'done'; result: IssuerList }
  | { state: 'failed'; problem: string };

/**
 * Issuers in the caller's scope (Z all, H its issuer group's, I its own), searched by number, name or
 * ICA (2+ characters) or all of them; paged, with a page jump.
 */
export function IssuerSearchScreen() {
  const { t, user, problemText, languageTag } = useApp();
  usePageTitle(t('app.issuers.search.heading'));
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [draft, setDraft] = useState(q);
  const [problem, setProblem] = useState<string | undefined>();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => setDraft(q), [q]);

  useEffect(() => {
    const criteria = q.trim() ? checkSearchCriteria(q) : undefined;
    if (criteria) {
      setProblem(criteria);
      return;
    }
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    searchIssuers({ q: q.trim() || undefined, page }, controller.signal).then(
      (result) => setLoaded({ state: 'done', result }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({ state: 'failed', problem: error instanceof ApiError ? error.code : 'error.generic' });
      },
    );
    return () => controller.abort();
  }, [q, page]);

  const go = (next: { q: string; page?: number }) => {
    const query = new URLSearchParams();
    if (next.q.trim()) query.set('q', next.q.trim());
    if (next.page && next.page > 1) query.set('page', String(next.page));
    setParams(query);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = draft.trim() ? checkSearchCriteria(draft) : undefined;
    setProblem(found);
    if (found) {
      document.getElementById('issuer-q')?.focus();
      return;
    }
    go({ q: draft });
  };

  const result = loaded.state === 'done' ? loaded.result : undefined;
  const number = new Intl.NumberFormat(languageTag);

  return (
    <>
      <h1>{t('app.issuers.search.heading')}</h1>
      <div className="app-actions">
        {mayOnIssuers(user.userType, 'createIssuer') ? (
          <Link to="/issuers/new" id="create-issuer-link" className="app-button">
            {t('app.issuers.create.heading')}
          </Link>
        ) : null}
        {mayOnIssuers(user.userType, 'viewIssuerGroups') ? (
          <Link to="/issuer-groups" id="issuer-groups-link" className="app-button">
            {t('app.issuerGroups.heading')}
          </Link>
        ) : null}
      </div>
      <search>
        <form className="app-form app-form--inline" onSubmit={submit} noValidate>
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="issuer-q">
              {t('app.issuers.search.criteria')}
            </label>
            <input
              id="issuer-q"
              className="cp-field__input"
              type="search"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'issuer-q-error' : undefined}
            />
            <FieldError id="issuer-q-error" message={problem ? problemText(problem) : undefined} />
          </div>
          <button type="submit" className="app-button app-button--primary" id="issuer-search-submit">
            {t('app.search.submit')}
          </button>
        </form>
      </search>

      <ErrorSummary
        id="issuer-search-error"
        message={loaded.state === 'failed' ? problemText(loaded.problem) : undefined}
      />
      <div aria-live="polite" className="app-live">
        {loaded.state === 'loading' ? <p>{t('common.loading')}</p> : null}
        {result ? (
          <p id="issuer-count">
            {result.total === 0
              ? t('app.issuers.search.none')
              : t('app.issuers.search.count', number.format(result.total))}
          </p>
        ) : null}
      </div>

      {result && result.rows.length > 0 ? (
        <>
          <TableWrap captionId="issuer-results-caption">
            <table className="app-table" id="issuer-results">
              <caption id="issuer-results-caption">{t('app.issuers.search.heading')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.issuers.field.number')}</th>
                  <th scope="col">{t('app.org.field.name1')}</th>
                  <th scope="col">{t('app.issuers.field.ica')}</th>
                  <th scope="col">{t('app.issuers.field.issuerGroup')}</th>
                  <th scope="col">{t('app.people.field.status')}</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((row) => (
                  <tr key={row.number}>
                    <th scope="row">
                      <Link to={`/issuers/${encodeURIComponent(row.number)}`}>{row.number}</Link>
                    </th>
                    <td>{row.name1}</td>
                    <td>{row.ica}</td>
                    <td>{row.issuerGroupName ?? ''}</td>
                    <td>
                      <ActivePill active={row.active} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Paging
            idPrefix="issuer"
            page={result.page}
            pages={result.pageCount}
            onGo={(next) => go({ q, page: next })}
          />
        </>
      ) : null}
    </>
  );
}
