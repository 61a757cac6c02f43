import { AUDIT_ENTITIES, AUDIT_LIST_ORDER, type AuditRow } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { auditExportUrl } from '../../api/audit.ts';
import type { MenuAction } from '../../frame/aria/menu.tsx';
import { DataTable, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { DateField } from '../../frame/form/date-field.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useServerSort } from '../../frame/use-server-sort.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { auditColumns } from './audit-columns.tsx';
import {
  type AuditFilterValues,
  auditFilterSchema,
  auditPageQuery,
  filtersOf,
  searchOf,
} from './audit-queries.ts';

/**
 * The audit trail (administrators): who did what and when, with each change's before → after; filtered
 * by date range (From not after To, at most 30 days), actor, user and kind of record; paged; the same
 * filters export as CSV through the API. The URL holds the filters and the page, so back/forward and a
 * shared link show the same events.
 */
export function AuditScreen() {
  const { t, tCount, format, problemText, languageTag } = useApp();
  usePageTitle(t('app.audit.heading'));
  const [params, setParams] = useSearchParams();
  const applied = filtersOf(params);
  const paging = useKeysetCursor();
  const order = useServerSort(AUDIT_LIST_ORDER);
  const query = useQuery({
    ...auditPageQuery({ ...applied, ...order.query, ...paging.cursor }),
    placeholderData: keepPreviousData,
  });
  const form = useAppForm({ schema: auditFilterSchema, defaultValues: applied });
  const key = params.toString();

  // A new URL (back button, a row action) refills the form with the filters it shows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL (key) is the filter
  useEffect(() => form.reset(applied), [key]);

  // New filters start at the newest events (the URL's cursor is left behind).
  const go = (next: Partial<AuditFilterValues>) => setParams(order.keep(searchOf(next)));

  const columns = useMemo(() => auditColumns({ t, format }), [t, format]);
  const rowActions: RowActions<AuditRow> = {
    label: (row) => t('app.audit.rowActions', format.dateTime(row.at)),
    actions: (row) => {
      const actions: MenuAction[] = [];
      const { actor, subject } = row;
      if (actor)
        actions.push({
          id: 'actor',
          label: t('app.audit.filterActor', actor),
          onAction: () => go({ ...applied, actor }),
        });
      if (subject)
        actions.push({
          id: 'user',
          label: t('app.audit.filterUser', subject),
          onAction: () => go({ ...applied, user: subject }),
        });
      return actions;
    },
  };

  const result = query.data;
  const failed = query.isError ? problemOf(query.error) : undefined;
  const count = new Intl.NumberFormat(languageTag);
  const exportParams = result ? { ...applied, from: result.from, to: result.to } : applied;

  return (
    <>
      <h1>{t('app.audit.heading')}</h1>
      <search>
        <AppForm form={form} onSubmit={async (values) => go(values)} errorId="audit-filter-error" inline>
          <p id="audit-range-hint" className="app-hint app-form__note">
            {t('app.audit.rangeHint')}
          </p>
          <DateField
            control={form.control}
            name="from"
            id="audit-from"
            label={t('app.audit.from')}
            describedBy="audit-range-hint"
          />
          <DateField
            control={form.control}
            name="to"
            id="audit-to"
            label={t('app.audit.to')}
            describedBy="audit-range-hint"
          />
          <TextField
            control={form.control}
            name="actor"
            id="audit-actor"
            label={t('app.audit.actor')}
            maxLength={64}
          />
          <TextField
            control={form.control}
            name="user"
            id="audit-user"
            label={t('app.audit.user')}
            maxLength={64}
          />
          <SelectField
            control={form.control}
            name="entity"
            id="audit-entity"
            label={t('app.audit.entity')}
            placeholder={t('app.people.search.any')}
            options={AUDIT_ENTITIES.map((entity) => ({
              value: entity,
              label: t(`app.audit.entity.${entity}`),
            }))}
          />
          <SubmitButton form={form} id="audit-submit">
            {t('app.audit.apply')}
          </SubmitButton>
        </AppForm>
      </search>
      <ErrorSummary id="audit-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {result && !failed ? (
          <p id="audit-count">
            {result.total === 0
              ? t('app.audit.none', format.date(result.from), format.date(result.to))
              : result.totalIsLowerBound
                ? t(
                    'app.audit.countAtLeast',
                    count.format(result.total),
                    format.date(result.from),
                    format.date(result.to),
                  )
                : tCount('app.audit.count', result.total, format.date(result.from), format.date(result.to))}
          </p>
        ) : null}
      </div>
      {failed ? null : (
        <DataTable
          id="audit-results"
          caption={t('app.audit.results')}
          columns={columns}
          data={result?.rows}
          getRowId={(row) => String(row.id)}
          loading={query.isFetching}
          {...order.table}
          columnChoice
          rowActions={rowActions}
          toolbar={
            result ? (
              <a className="app-button" id="audit-export" href={auditExportUrl(exportParams)} download>
                {t('app.audit.export')}
              </a>
            ) : null
          }
          paging={result ? paging.pager('audit', result) : undefined}
        />
      )}
    </>
  );
}
