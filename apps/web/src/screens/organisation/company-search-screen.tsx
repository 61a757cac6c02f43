import { type CompanyList, checkSearchCriteria, mayOnOrganisation } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { searchCompanies } from '../../api/organisations.ts';
import { Paging } from '../../frame/paging.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';

type Loaded =
  | { state: 'loading' }
  | { state: 'done'; result: CompanyList }
  | { state: 'failed'; problem: string };

/**
 * Organisation: the companies in the caller's scope, searched by name or number (2+ characters, the
 * People rules) or all of them when no criteria are given; paged, with a page jump.
 */
export function CompanySearchScreen() {
  const { t, user, problemText, languageTag } = useApp();
  usePageTitle(t('app.org.search.heading'));
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
    searchCompanies({ q: q.trim() || undefined, page }, controller.signal).then(
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
      document.getElementById('company-q')?.focus();
      return;
    }
    go({ q: draft });
  };

  const result = loaded.state === 'done' ? loaded.result : undefined;
  const pages = result?.pageCount ?? 1;
  const number = new Intl.NumberFormat(languageTag);

  return (
    <>
      <h1>{t('app.org.search.heading')}</h1>
      {mayOnOrganisation(user.userType, 'createCompany') ? (
        <p>
          <Link to="/organisation/new" id="create-company-link" className="app-button">
            {t('app.org.create.heading')}
          </Link>
        </p>
      ) : null}
      <search>
        <form className="app-form app-form--inline" onSubmit={submit} noValidate>
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="company-q">
              {t('app.org.search.criteria')}
            </label>
            <input
              id="company-q"
              className="cp-field__input"
              type="search"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'company-q-error' : undefined}
            />
            <FieldError id="company-q-error" message={problem ? problemText(problem) : undefined} />
          </div>
          <button type="submit" className="app-button app-button--primary" id="company-search-submit">
            {t('app.search.submit')}
          </button>
        </form>
      </search>

      <ErrorSummary
        id="company-search-error"
        message={loaded.state === 'failed' ? problemText(loaded.problem) : undefined}
      />
      <div aria-live="polite" className="app-live">
        {loaded.state === 'loading' ? <p>{t('common.loading')}</p> : null}
        {result ? (
          <p id="company-count">
            {result.total === 0
              ? t('app.org.search.none')
              : t('app.org.search.count', number.format(result.total))}
          </p>
        ) : null}
      </div>

      {result && result.rows.length > 0 ? (
        <>
          <TableWrap captionId="company-results-caption">
            <table className="app-table" id="company-results">
              <caption id="company-results-caption">{t('app.org.search.results')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.org.field.number')}</th>
                  <th scope="col">{t('app.org.field.name1')}</th>
                  <th scope="col">{t('app.org.field.issuer')}</th>
                  <th scope="col">{t('app.org.field.groupName')}</th>
                  <th scope="col">{t('app.people.field.status')}</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((row) => (
                  <tr key={row.number}>
                    <th scope="row">
                      <Link to={`/organisation/${encodeURIComponent(row.number)}`}>{row.number}</Link>
                    </th>
                    <td>{row.name1}</td>
                    <td>{row.issuerName}</td>
                    <td>{row.groupName ?? ''}</td>
                    <td>
                      <ActivePill active={row.active} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Paging
            idPrefix="company"
            page={result.page}
            pages={pages}
            onGo={(next) => go({ q, page: next })}
          />
        </>
      ) : null}
    </>
  );
}

/** Active / Inactive, as the user status pill shows it. */
