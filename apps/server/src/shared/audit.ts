import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';

export type AuditEvent =
  | 'login.success'
  | 'login.failure'
  | 'login.locked'
  | 'login.refused'
  | 'logout'
  | 'user.created'
  | 'user.unlocked'
  | 'user.locked'
  | 'password.reset'
  | 'password.changed'
  | 'token.pin-set';

export interface AuditEntry {
  userPk?: number | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * The insert of one audit row as SQL, for a caller that writes it in the same statement as the change
 * it records (a data-modifying CTE). `detail` must never carry a secret.
 */
export function auditInsert(event: AuditEvent, entry: AuditEntry): SQL {
  return sql`insert into ${auditEvents} (event, user_pk, ip, detail)
    values (${event}, ${entry.userPk ?? null}, ${entry.ip ?? null}, ${JSON.stringify(entry.detail ?? {})}::jsonb)`;
}

/** Records a sign-in event. `detail` must never carry a secret (password, code, answer, session id). */
export async function audit(db: Executor, event: AuditEvent, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    event,
    userPk: entry.userPk ?? null,
    ip: entry.ip ?? null,
    detail: entry.detail ?? {},
  });
}
