import {
  AUDIT_LIST_ORDER,
  type AuditFilters,
  type CallerScope,
  SELF_SERVICE_EVENTS,
  type SortDirection,
} from '@cardportal/domain';
import { and, desc, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { auditEvents, users } from '../../db/schema.ts';
import {
  countUpTo,
  type KeysetPage,
  keysetPage,
  type PageRequest,
  type SortKey,
  sortedKeyset,
} from '../../kernel/paging.ts';
import { visibleUserIds } from '../access/index.ts';

const subject = alias(users, 'subject');

/** The optional filters (exact user IDs and entity, any case). */
function filtered(filters: AuditFilters): SQL | undefined {
  return and(
    // By whom: the administrator who acted, or the person itself in the events it takes for itself.
    filters.actor
      ? sql`(lower(${auditEvents.actorUserId}) = lower(${filters.actor})
          or (${auditEvents.actorUserId} is null and ${inArray(auditEvents.event, [...SELF_SERVICE_EVENTS])}
            and ${auditEvents.userPk} in (select id from users where lower(display_user_id) = lower(${filters.actor}))))`
      : undefined,
    filters.user
      ? sql`${auditEvents.userPk} in (select id from users where lower(display_user_id) = lower(${filters.user}))`
      : undefined,
    filters.entity ? sql`lower(${auditEvents.entity}) = lower(${filters.entity})` : undefined,
  );
}

/**
 * Audit rows a caller may read: about users in its scope, or made by users in its scope (so an
 * administrator sees the changes its own administrators made to company records: accounts, groups,
 * org points); a system administrator reads every row.
 */
function readable(
  db: Executor,
  caller: CallerScope,
  from: Date,
  toExclusive: Date,
  filters: AuditFilters = {},
): SQL {
  const range = and(gte(auditEvents.at, from), lt(auditEvents.at, toExclusive), filtered(filters)) as SQL;
  if (caller.type === 'Z') return range;
  return and(
    range,
    or(
      inArray(auditEvents.userPk, visibleUserIds(db, caller)),
      inArray(auditEvents.actorPk, visibleUserIds(db, caller)),
    ),
  ) as SQL;
}

const columns = {
  id: auditEvents.id,
  at: auditEvents.at,
  event: auditEvents.event,
  actor: auditEvents.actorUserId,
  entity: auditEvents.entity,
  entityId: auditEvents.entityId,
  subject: subject.displayUserId,
  changes: auditEvents.changes,
  ip: auditEvents.ip,
};

/** How many rows the range holds, counting no further than `cap + 1` (the screen shows "cap+" past it). */
export function countAudit(
  db: Executor,
  caller: CallerScope,
  from: Date,
  to: Date,
  filters: AuditFilters,
  cap: number,
): Promise<number> {
  return countUpTo(db, cap, (limit) =>
    db
      .select({ one: sql`1` })
      .from(auditEvents)
      .where(readable(db, caller, from, to, filters))
      .limit(limit)
      .as('counted'),
  );
}

const selectAudit = (db: Executor) =>
  db
    .select({ ...columns, atKey: sql<string>`${auditEvents.at}::text` })
    .from(auditEvents)
    .leftJoin(subject, sql`${subject.id} = ${auditEvents.userPk}`)
    .$dynamic();

export type AuditListRow = Awaited<ReturnType<typeof selectAudit>>[number];

/**
 * By (at, id), newest first by default or oldest first: the index audit_events_at_id_idx read
 * backwards or forwards (migration 0007).
 */
const auditSorts: Record<'at', SortKey<AuditListRow>> = {
  at: {
    keys: [
      { expr: auditEvents.at, type: 'timestamptz' },
      { expr: auditEvents.id, type: 'int' },
    ],
    keyOf: (row) => [row.atKey, row.id],
  },
};

/** One page of the range by key (`after` / `before` a cursor of this list). */
export function pageOfAudit(
  db: Executor,
  caller: CallerScope,
  from: Date,
  to: Date,
  filters: AuditFilters,
  page: PageRequest,
  dir: SortDirection = AUDIT_LIST_ORDER.default.dir,
): Promise<KeysetPage<AuditListRow>> {
  const where = readable(db, caller, from, to, filters);
  const keyset = sortedKeyset('audit', auditSorts, { sort: 'at', dir }, AUDIT_LIST_ORDER.default);
  return keysetPage(keyset, page, (beyond) => selectAudit(db).where(and(where, beyond)));
}

/** The range newest first, at most `limit` rows (the CSV export). */
export function listAudit(
  db: Executor,
  caller: CallerScope,
  from: Date,
  to: Date,
  limit: number,
  filters: AuditFilters = {},
): Promise<AuditListRow[]> {
  return selectAudit(db)
    .where(readable(db, caller, from, to, filters))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(limit);
}
