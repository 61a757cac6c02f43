import { AUDIT_ENTITIES, type AuditPage, type AuditRow, checkAuditRange } from '@cardportal/domain';
import { ErrorSummary, FieldError } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { auditExportUrl, getAuditPage } from '../../api/audit.ts';
import { Paging } from '../../frame/paging.tsx';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';

type Loaded =
  | { state: 'loading' }
  | { state: 'done'; page: AuditPage }
  | { state: 'failed'; problem: string };
type Filter = 'from' | 'to' | 'actor' | 'user' | 'entity';
const FILTERS: Filter[] = ['from', 'to', 'actor', 'user', 'entity'];

const codeOf = (error: unknown) =>
  error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : 'error.generic';

/** A changed field's value as text (objects as JSON). */
const show = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

function Changes({ row }: { row: AuditRow }) {
  const { t } = useApp();
  const entries = Object.entries(row.changes ?? {});
  if (entries.length === 0) return null;
  return (
    <ul className="app-changes">
      {entries.map(([field, change]) => (
        <li key={field}>{t('app.audit.change', field, show(change.before), show(change.after))}</li>
      ))}
    </ul>
  );
}

/**
 * The audit trail (administrators): who did what and when, with each change's before → after; filtered
 * by date range (From not after To, at most 30 days), actor, user and kind of record; paged; the same
 * filters export as CSV through the API.
 */
export function AuditScreen() {
  const { t, problemText, fieldProblemText, languageTag } = useApp();
  usePageTitle(t('app.audit.heading'));
  const [params, setParams] = useSearchParams();
  const applied = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])) as Record<Filter, string>;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [draft, setDraft] = useState(applied);
  const [problems, setProblems] = useState<{ from?: string; to?: string }>({});
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const key = params.toString();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL (key) is the query
  useEffect(() => {
    setDraft(applied);
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    getAuditPage({ ...applied, page }, controller.signal).then(
      (result) => setLoaded({ state: 'done', page: result }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ state: 'failed', problem: codeOf(error) });
      },
    );
    return () => controller.abort();
  }, [key]);

  const go = (next: Record<Filter, string>, toPage = 1) => {
    const query = new URLSearchParams();
    for (const f of FILTERS) if (next[f].trim()) query.set(f, next[f].trim());
    if (toPage > 1) query.set('page', String(toPage));
    setParams(query);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkAuditRange(draft.from, draft.to);
    setProblems(found);
    if (found.from || found.to) {
      document.getElementById(found.from ? 'audit-from' : 'audit-to')?.focus();
      return;
    }
    go(draft);
  };

  const result = loaded.state === 'done' ? loaded.page : undefined;
  const count = new Intl.NumberFormat(languageTag);
  const when = new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: 'medium' });
  const exportParams = result ? { ...applied, from: result.from, to: result.to } : applied;

  const dateField = (name: 'from' | 'to') => (
    <div className="cp-field">
      <label className="cp-field__label" htmlFor={`audit-${name}`}>
        {t(`app.audit.${name}`)}
      </label>
      <input
        id={`audit-${name}`}
        className="cp-field__input"
        type="date"
        value={draft[name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        aria-invalid={problems[name] ? true : undefined}
        aria-describedby={problems[name] ? `audit-${name}-error` : 'audit-range-hint'}
      />
      <FieldError
        id={`audit-${name}-error`}
        message={problems[name] ? fieldProblemText(problems[name] as string) : undefined}
      />
    </div>
  );

  const textField = (name: 'actor' | 'user') => (
    <div className="cp-field">
      <label className="cp-field__label" htmlFor={`audit-${name}`}>
        {t(`app.audit.${name}`)}
      </label>
      <input
        id={`audit-${name}`}
        className="cp-field__input"
        value={draft[name]}
        maxLength={64}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
    </div>
  );

  return (
    <>
      <h1>{t('app.audit.heading')}</h1>
      <search>
        <form className="app-form app-form--inline" onSubmit={submit} noValidate>
          <p id="audit-range-hint" className="app-hint">
            {t('app.audit.rangeHint')}
          </p>
          {dateField('from')}
          {dateField('to')}
          {textField('actor')}
          {textField('user')}
          <div className="cp-field">
            <label className="cp-field__label" htmlFor="audit-entity">
              {t('app.audit.entity')}
            </label>
            <select
              id="audit-entity"
              className="cp-field__input"
              value={draft.entity}
              onChange={(e) => setDraft({ ...draft, entity: e.target.value })}
            >
              <option value="">{t('app.people.search.any')}</option>
              {AUDIT_ENTITIES.map((entity) => (
                <option key={entity} value={entity}>
                  {t(`app.audit.entity.${entity}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="app-button app-button--primary" id="audit-submit">
            {t('app.audit.apply')}
          </button>
        </form>
      </search>
      <ErrorSummary
        id="audit-error"
        message={loaded.state === 'failed' ? problemText(loaded.problem) : undefined}
      />
      <div aria-live="polite" className="app-live">
        {loaded.state === 'loading' ? <p>{t('common.loading')}</p> : null}
        {result ? (
          <p id="audit-count">
            {result.total === 0
              ? t('app.audit.none', result.from, result.to)
              : t('app.audit.count', count.format(result.total), result.from, result.to)}
          </p>
        ) : null}
      </div>
      {result ? (
        <p>
          <a className="app-button" id="audit-export" href={auditExportUrl(exportParams)} download>
            {t('app.audit.export')}
          </a>
        </p>
      ) : null}
      {result && result.rows.length > 0 ? (
        <>
          <TableWrap captionId="audit-results-caption">
            <table className="app-table" id="audit-results">
              <caption id="audit-results-caption">{t('app.audit.results')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.audit.when')}</th>
                  <th scope="col">{t('app.audit.who')}</th>
                  <th scope="col">{t('app.audit.what')}</th>
                  <th scope="col">{t('app.audit.user')}</th>
                  <th scope="col">{t('app.audit.changes')}</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((row) => (
                  <tr key={row.id}>
                    <th scope="row">
                      <time dateTime={row.at}>{when.format(new Date(row.at))}</time>
                    </th>
                    <td>{row.actor ?? t('app.audit.system')}</td>
                    <td>
                      {row.event}
                      {row.entity
                        ? ` · ${t(`app.audit.entity.${row.entity}`) || row.entity} ${row.entityId ?? ''}`
                        : ''}
                    </td>
                    <td>{row.subject ?? ''}</td>
                    <td>
                      <Changes row={row} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Paging
            idPrefix="audit"
            page={result.page}
            pages={result.pageCount}
            onGo={(next) => go(applied, next)}
          />
        </>
      ) : null}
    </>
  );
}
