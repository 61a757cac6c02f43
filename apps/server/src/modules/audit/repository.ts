import type { CallerScope } from '@cardportal/domain';
import { and, desc, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { auditEvents, users } from '../../db/schema.ts';
import { visibleUserIds } from '../../shared/user-scope.ts';

/** Audit rows a caller may read: about users in its scope; a system administrator reads every row. */
function readable(db: Executor, caller: CallerScope, from: Date, toExclusive: Date): SQL {
  const range = and(gte(auditEvents.at, from), lt(auditEvents.at, toExclusive)) as SQL;
  if (caller.type === 'Z') return range;
  return and(range, inArray(auditEvents.userPk, visibleUserIds(db, caller))) as SQL;
}

const subject = alias(users, 'subject');

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

export async function countAudit(db: Executor, caller: CallerScope, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(readable(db, caller, from, to));
  return Number(row?.n ?? 0);
}

export function listAudit(
  db: Executor,
  caller: CallerScope,
  from: Date,
  to: Date,
  offset: number,
  limit: number,
) {
  return db
    .select(columns)
    .from(auditEvents)
    .leftJoin(subject, sql`${subject.id} = ${auditEvents.userPk}`)
    .where(readable(db, caller, from, to))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .offset(offset)
    .limit(limit);
}

export type AuditListRow = Awaited<ReturnType<typeof listAudit>>[number];
