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

/** Records a sign-in event. `detail` must never carry a secret (password, code, answer, session id). */
export async function audit(
  db: Executor,
  event: AuditEvent,
  entry: { userPk?: number | null; ip?: string | null; detail?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditEvents).values({
    event,
    userPk: entry.userPk ?? null,
    ip: entry.ip ?? null,
    detail: entry.detail ?? {},
  });
}
