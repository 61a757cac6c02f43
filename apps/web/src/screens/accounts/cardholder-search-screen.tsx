import { type CardholderList, checkSearchCriteria, isLastFourSearch } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { searchCardholders } from '../../api/accounts.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { Paging } from '../../frame/paging.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { codeOfError, fullName } from './shared.tsx';

type Loaded =
  | { state: 'loading' }
  | { state: 'done'; result: CardholderList }
  | { state: 'failed'; problem: string };

/** Criteria: empty (all), the last four digits, or a name of 2+ characters (the people-search rule). */
export function checkCardholderCriteria(q: string): string | undefined {
  if (!q.trim() || isLastFourSearch(q)) return undefined;
  return checkSearchCriteria(q);
}

/** A company's cardholders, searched by name or the last four digits of a card; paged with a page jump. */
export function CardholderSearchScreen() {
  const { t, problemText, languageTag } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounts.cardholders.heading', number));
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = params.get('status') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [draft, setDraft] = useState({ q, status });
  const [problem, setProblem] = useState<string | undefined>();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => setDraft({ q, status }), [q, status]);

  useEffect(() => {
    const found = checkCardholderCriteria(q);
    if (found) {
      setProblem(found);
      return;
    }
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    searchCardholders(
      number,
      { q: q.trim() || undefined, status: status || undefined, page },
      controller.signal,
    ).then(
      (result) => setLoaded({ state: 'done', result }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed', problem: codeOfError(error) });
      },
    );
    return () => controller.abort();
  }, [number, q, status, page]);

  const go = (next: { q: string; status: string; page?: number }) => {
    const query = new URLSearchParams();
    if (next.q.trim()) query.set('q', next.q.trim());
    if (next.status) query.set('status', next.status);
    if (next.page && next.page > 1) query.set('page', String(next.page));
    setParams(query);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkCardholderCriteria(draft.q);
    setProblem(found);
    if (found) {
      document.getElementById('cardholder-q')?.focus();
      return;
    }
    go(draft);
  };

  const result = loaded.state === 'done' ? loaded.result : undefined;
  const count = new Intl.NumberFormat(languageTag);

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
        <form className="app-form app-form--inline" onSubmit={submit} noValidate>
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="cardholder-q">
              {t('app.accounts.cardholders.criteria')}
            </label>
            <input
              id="cardholder-q"
              className="cp-field__input"
              type="search"
              value={draft.q}
              onChange={(e) => setDraft({ ...draft, q: e.target.value })}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'cardholder-q-error' : undefined}
            />
            <FieldError id="cardholder-q-error" message={problem ? problemText(problem) : undefined} />
          </div>
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="cardholder-status">
              {t('app.people.field.status')}
            </label>
            <select
              id="cardholder-status"
              className="cp-field__input"
              value={draft.status}
              onChange={(e) => setDraft({ ...draft, status: e.target.value })}
            >
              <option value="">{t('app.people.search.any')}</option>
              <option value="active">{t('app.status.Active')}</option>
              <option value="inactive">{t('app.status.Inactive')}</option>
            </select>
          </div>
          <button type="submit" className="app-button app-button--primary" id="cardholder-search-submit">
            {t('app.search.submit')}
          </button>
        </form>
      </search>

      <ErrorSummary
        id="cardholder-search-error"
        message={loaded.state === 'failed' ? problemText(loaded.problem) : undefined}
      />
      <div aria-live="polite" className="app-live">
        {loaded.state === 'loading' ? <p>{t('common.loading')}</p> : null}
        {result ? (
          <p id="cardholder-count">
            {result.total === 0
              ? t('app.accounts.cardholders.none')
              : t('app.accounts.cardholders.count', count.format(result.total))}
          </p>
        ) : null}
      </div>

      {result && result.rows.length > 0 ? (
        <>
          <TableWrap captionId="cardholder-results-caption">
            <table className="app-table" id="cardholder-results">
              <caption id="cardholder-results-caption">{t('app.accounts.cardholders.results')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.accounts.field.cardholder')}</th>
                  <th scope="col">{t('app.accounts.field.orgPoint')}</th>
                  <th scope="col">{t('app.accounts.field.accountCount')}</th>
                  <th scope="col">{t('app.people.field.status')}</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row">
                      <Link to={`/organisation/${encodeURIComponent(number)}/cardholders/${row.id}`}>
                        {fullName(row)}
                      </Link>
                    </th>
                    <td>{row.orgPoint ? `${row.orgPoint.number} ${row.orgPoint.name1}` : ''}</td>
                    <td>{count.format(row.accountCount)}</td>
                    <td>
                      <ActivePill active={row.active} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Paging
            idPrefix="cardholder"
            page={result.page}
            pages={result.pageCount}
            onGo={(next) => go({ q, status, page: next })}
          />
        </>
      ) : null}
    </>
  );
}
