import type { FastifyInstance } from 'fastify';
import { auditAdmin } from '../kernel/audit.ts';
import { keyedHash } from '../security/crypto.ts';
import type { Caller } from './caller.ts';

/**
 * Keys unique across the whole system, not one tenant (docs/security.md, issue 13 item 4): the user ID
 * (sign-in names nothing but it), the company number and the issuer number. A refusal because such a
 * key is taken tells an administrator that it exists somewhere, in a tenant they may not see; the
 * answer itself says no more than "taken" (the same code and text wherever the holder is), and these
 * refusals are bounded and recorded: each counts against the administrator's budget and writes an
 * audit row, and an administrator over budget gets no answer about such keys until the window ends.
 */
export const UNIQUE_KEY_REFUSALS: Readonly<Record<string, string>> = {
  'userId.exists': 'user',
  'company.number.duplicate': 'company',
  'issuer.number.duplicate': 'issuer',
};

/** Refusals of taken system-wide keys per administrator (the person really working) per hour. */
export const UNIQUE_KEY_BUDGET = { max: 10, windowMs: 60 * 60_000 } as const;

/**
 * The counter of the person really working: a keyed hash of its row id, so that databases sharing one
 * Redis (several deployments, the test suite) never count into each other's budgets.
 */
const budgetKey = (app: FastifyInstance, caller: Caller) =>
  `unique-keys:${keyedHash(app.secrets.hmac, 'unique-key-budget', String(caller.accessedBy?.pk ?? caller.userPk))}`;

/** Seconds to wait when the caller's budget is spent, else undefined (the request may go on). */
export async function uniqueKeyBudgetSpent(
  app: FastifyInstance,
  caller: Caller,
): Promise<number | undefined> {
  const { count, retryAfterS } = await app.throttle.peek(budgetKey(app, caller));
  return count >= UNIQUE_KEY_BUDGET.max ? retryAfterS : undefined;
}

/**
 * Counts one refusal of a taken system-wide key against the caller and records it in the audit trail
 * (after the refused change's transaction ended: nothing of the change was written). `tried` is the
 * key the administrator typed — never a secret.
 */
export async function recordUniqueKeyRefusal(
  app: FastifyInstance,
  caller: Caller,
  code: string,
  tried: string,
  ip: string,
): Promise<void> {
  const entity = UNIQUE_KEY_REFUSALS[code];
  if (!entity) return;
  await app.throttle.hit(budgetKey(app, caller), UNIQUE_KEY_BUDGET.max, UNIQUE_KEY_BUDGET.windowMs);
  await auditAdmin(app.db, 'uniqueKey.refused', {
    actor: caller,
    entity,
    entityId: tried.slice(0, 64),
    ip,
    detail: { code },
  });
}
