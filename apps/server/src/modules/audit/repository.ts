import type { AuditFilters, CallerScope } from '@cardportal/domain';
import { and, desc, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { auditEvents, users } from '../../db/schema.ts';
import { visibleUserIds } from '../access/index.ts';

const subject = alias(users, 'subject');

/** The optional filters (exact user IDs and entity, any case). */
function filtered(filters: AuditFilters): SQL | undefined {
  return and(
    filters.actor ? sql`lower(${auditEvents.actorUserId}) = lower(${filters.actor})` : undefined,
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

export async function countAudit(
  db: Executor,
  caller: CallerScope,
  from: Date,
  to: Date,
  filters: AuditFilters = {},
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(readable(db, caller, from, to, filters));
  return Number(row?.n ?? 0);
}

export function listAudit(
  db: Executor,
  caller: CallerScope,
  from: Date,
  to: Date,
  offset: number,
  limit: number,
  filters: AuditFilters = {},
) {
  return db
    .select(columns)
    .from(auditEvents)
    .leftJoin(subject, sql`${subject.id} = ${auditEvents.userPk}`)
    .where(readable(db, caller, from, to, filters))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .offset(offset)
    .limit(limit);
}

export type AuditListRow = Awaited<ReturnType<typeof listAudit>>[number];
