import { AUDIT_ENTITIES, type AuditRow, isAuditEvent, isAuditField, isUserType } from '@cardportal/domain';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { type App, useApp } from '../../lib/app-context.tsx';

/** A record kind the texts name; any other (a newer server's) shows as it comes. */
const isKnownEntity = (entity: string): entity is (typeof AUDIT_ENTITIES)[number] =>
  (AUDIT_ENTITIES as readonly string[]).includes(entity);

/**
 * A changed field's value in the reader's words: yes or no, a user type's name, "(none)" for nothing;
 * anything else as it was recorded (objects as JSON).
 */
function show(t: App['t'], field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('app.audit.empty');
  if (typeof value === 'boolean') return t(value ? 'app.audit.yes' : 'app.audit.no');
  if (field === 'userType' && typeof value === 'string' && isUserType(value))
    return t(`app.userType.${value}`);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The event in the reader's language; an event a newer server records shows as it comes. */
export const eventText = (t: App['t'], event: string) =>
  isAuditEvent(event) ? t(`app.audit.event.${event}`) : event;

/** A changed field's name in the reader's language (an unknown one as recorded). */
export const fieldText = (t: App['t'], field: string) =>
  isAuditField(field) ? t(`app.audit.field.${field}`) : field;

function Changes({ row }: { row: AuditRow }) {
  const { t } = useApp();
  const entries = Object.entries(row.changes ?? {});
  if (entries.length === 0) return null;
  return (
    <ul className="app-changes">
      {entries.map(([field, change]) => (
        <li key={field}>
          {t(
            'app.audit.change',
            fieldText(t, field),
            show(t, field, change.before),
            show(t, field, change.after),
          )}
        </li>
      ))}
    </ul>
  );
}

const col = dataColumns<AuditRow>();

/**
 * The audit grid's columns: when (names the row; the server's order, newest first), who, what (event
 * and record), the user concerned and the changes. All but "when" may be hidden.
 */
export function auditColumns({ t, format }: Pick<App, 't' | 'format'>): DataColumn<AuditRow>[] {
  return col.columns([
    col.accessor('at', {
      header: t('app.audit.when'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: (cell) => <time dateTime={cell.getValue()}>{format.dateTime(cell.getValue())}</time>,
    }),
    col.accessor((row) => row.actor ?? t('app.audit.system'), { id: 'actor', header: t('app.audit.who') }),
    col.accessor('event', {
      id: 'what',
      header: t('app.audit.what'),
      cell: ({ row: { original: row } }) => (
        <>
          <span className="app-audit-event" data-event={row.event}>
            {eventText(t, row.event)}
          </span>
          {row.entity
            ? ` · ${isKnownEntity(row.entity) ? t(`app.audit.entity.${row.entity}`) : row.entity} ${row.entityId ?? ''}`
            : ''}
        </>
      ),
    }),
    col.accessor((row) => row.subject ?? '', { id: 'subject', header: t('app.audit.user') }),
    col.display({
      id: 'changes',
      header: t('app.audit.changes'),
      cell: ({ row }) => <Changes row={row.original} />,
    }),
  ]);
}
