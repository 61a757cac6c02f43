import type { AuditRow } from '@cardportal/domain';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { type App, useApp } from '../../lib/app-context.tsx';

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

const col = dataColumns<AuditRow>();

/**
 * The audit grid's columns: when (names the row; the server's order, newest first), who, what (event
 * and record), the user concerned and the changes. All but "when" may be hidden.
 */
export function auditColumns({ t, languageTag }: Pick<App, 't' | 'languageTag'>): DataColumn<AuditRow>[] {
  const when = new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: 'medium' });
  return col.columns([
    col.accessor('at', {
      header: t('app.audit.when'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: (cell) => <time dateTime={cell.getValue()}>{when.format(new Date(cell.getValue()))}</time>,
    }),
    col.accessor((row) => row.actor ?? t('app.audit.system'), { id: 'actor', header: t('app.audit.who') }),
    col.accessor('event', {
      id: 'what',
      header: t('app.audit.what'),
      cell: ({ row: { original: row } }) =>
        `${row.event}${row.entity ? ` · ${t(`app.audit.entity.${row.entity}`) || row.entity} ${row.entityId ?? ''}` : ''}`,
    }),
    col.accessor((row) => row.subject ?? '', { id: 'subject', header: t('app.audit.user') }),
    col.display({
      id: 'changes',
      header: t('app.audit.changes'),
      cell: ({ row }) => <Changes row={row.original} />,
    }),
  ]);
}
