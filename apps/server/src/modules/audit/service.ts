import {
  AUDIT_COUNT_CAP,
  AUDIT_CSV_COLUMNS,
  AUDIT_LIST_ORDER,
  AUDIT_MAX_RANGE_DAYS,
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  type AuditPage,
  type AuditRow,
  chosenOrder,
  SELF_SERVICE_EVENTS,
  type SortDirection,
} from '@cardportal/domain';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { formulaSafe } from '../../kernel/spreadsheet.ts';
import { type AuditListRow, countAudit, listAudit, pageOfAudit } from './repository.ts';

const DAY = 86_400_000;
/** Rows of one export at most (30 days of a busy system; the export is refused past it). */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

const today = () => new Date(new Date().toISOString().slice(0, 10));
const dayOf = (text: string) => new Date(`${text}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

/**
 * From and To (calendar days, UTC, inclusive): From not after To, at most 30 days. Without them, the
 * last 30 days up to today; with only one, the other is 29 days away.
 */
export function dateRange(input: { from?: string; to?: string }): { from: Date; to: Date } {
  let to = input.to ? dayOf(input.to) : undefined;
  let from = input.from ? dayOf(input.from) : undefined;
  if (!to && !from) to = today();
  to ??= new Date((from as Date).getTime() + (AUDIT_MAX_RANGE_DAYS - 1) * DAY);
  from ??= new Date(to.getTime() - (AUDIT_MAX_RANGE_DAYS - 1) * DAY);
  if (from.getTime() > to.getTime())
    throw new AppError('invalid', 'dateRange.fromAfterTo', {
      fieldErrors: { from: 'dateRange.fromAfterTo' },
    });
  if ((to.getTime() - from.getTime()) / DAY + 1 > AUDIT_MAX_RANGE_DAYS)
    throw new AppError('invalid', 'audit.rangeTooLong', { fieldErrors: { to: 'audit.rangeTooLong' } });
  return { from, to };
}

function toRow(r: AuditListRow): AuditRow {
  return {
    id: r.id,
    at: r.at.toISOString(),
    event: r.event,
    // Signing in or out, one's own password: the person the row is about acted (no administrator did).
    actor: r.actor ?? (SELF_SERVICE_EVENTS.has(r.event) ? r.subject : null),
    entity: r.entity,
    entityId: r.entityId,
    subject: r.subject,
    changes: r.changes ?? null,
    ip: r.ip,
  };
}

/** The filters that were given (empty ones dropped). */
const filtersOf = (query: AuditFilters): AuditFilters => ({
  ...(query.actor ? { actor: query.actor } : {}),
  ...(query.user ? { user: query.user } : {}),
  ...(query.entity ? { entity: query.entity } : {}),
});

/** A CSV cell: formula starters neutralised with a leading apostrophe (OWASP CSV injection), then quoted. */
export function csvCell(value: unknown): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return `"${formulaSafe(text).replace(/"/g, '""')}"`;
}

export class AuditService {
  constructor(private readonly db: Db) {}

  async page(
    caller: Caller,
    query: { from?: string; to?: string; after?: string; before?: string } & AuditFilters & {
        dir?: SortDirection | undefined;
      },
  ): Promise<AuditPage> {
    const { from, to } = dateRange(query);
    const end = new Date(to.getTime() + DAY);
    const filters = filtersOf(query);
    const page = await pageOfAudit(
      this.db,
      caller,
      from,
      end,
      filters,
      { after: query.after, before: query.before, limit: AUDIT_PAGE_SIZE },
      chosenOrder(AUDIT_LIST_ORDER, query).dir,
    );
    const counted = await countAudit(this.db, caller, from, end, filters, AUDIT_COUNT_CAP);
    return {
      rows: page.rows.map(toRow),
      nextCursor: page.nextCursor,
      prevCursor: page.prevCursor,
      total: Math.min(counted, AUDIT_COUNT_CAP),
      totalIsLowerBound: counted > AUDIT_COUNT_CAP,
      pageSize: AUDIT_PAGE_SIZE,
      from: iso(from),
      to: iso(to),
    };
  }

  /** The CSV of a range (at most 30 days); the export itself is audited. */
  async exportCsv(caller: Caller, query: { from?: string; to?: string } & AuditFilters, ip: string) {
    const { from, to } = dateRange(query);
    const end = new Date(to.getTime() + DAY);
    const rows = await listAudit(this.db, caller, from, end, AUDIT_EXPORT_MAX_ROWS, filtersOf(query));
    const lines = [AUDIT_CSV_COLUMNS.map(csvCell).join(',')];
    for (const r of rows.map(toRow)) lines.push(AUDIT_CSV_COLUMNS.map((c) => csvCell(r[c])).join(','));
    await auditAdmin(this.db, 'audit.exported', {
      actor: caller,
      entity: 'audit',
      entityId: `${iso(from)}..${iso(to)}`,
      detail: { rows: rows.length },
      ip,
    });
    return { csv: `${lines.join('\r\n')}\r\n`, filename: `audit-${iso(from)}-${iso(to)}.csv` };
  }
}
