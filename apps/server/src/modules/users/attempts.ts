import { LIMITS } from '@cardportal/domain';
import { and, asc, desc, eq, gte, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { unknownAttempts, users } from '../../db/schema.ts';
import { type AuditEntry, type AuditEvent, auditInsert } from '../../kernel/audit.ts';

const lockExpired = (column: typeof users.lockedAt | typeof unknownAttempts.lockedAt) =>
  sql`${column} < now() - make_interval(mins => ${LIMITS.lockMinutes})`;

/** Locks that only an administrator's unlock lifts. */
const heldLock = sql`${users.status} = 'Locked' and ${users.lockReason} in ('admin', 'temporary-expired')`;

/**
 * Reserves one guess for a user before it is evaluated, atomically: the row lock of the UPDATE
 * serialises concurrent attempts, so no more than `maxFailedAttempts` guesses are ever in flight or
 * evaluated between two successes. An expired lock from failed attempts is lifted here.
 *
 * With `explainLock`, a user locked for a reason only an administrator lifts (`admin`,
 * `temporary-expired`) gets a guess reserved too, inside the same allowance, and stays locked: its
 * check only tells whoever knows the password why they cannot sign in, so it must not become an
 * unlimited oracle. The same one statement either way (no extra round trip tells the cases apart).
 * Returns the attempt number and, for such a check, the lock's reason; undefined when the user is
 * locked (or inactive) and no guess may be checked.
 */
export async function reserveAttempt(
  db: Executor,
  userPk: number,
  explainLock = false,
): Promise<{ attempt: number; heldLock?: Exclude<LockReason, 'attempts'> } | undefined> {
  const [row] = await db
    .update(users)
    .set({
      failedAttempts: sql`case when ${users.status} = 'Locked' and ${users.lockReason} = 'attempts' then 1 else ${users.failedAttempts} + 1 end`,
      status: sql`case when ${heldLock} then ${users.status} else 'Active' end`,
      lockedAt: sql`case when ${heldLock} then ${users.lockedAt} else null end`,
      lockReason: sql`case when ${heldLock} then ${users.lockReason} else null end`,
    })
    .where(
      and(
        eq(users.id, userPk),
        or(
          and(eq(users.status, 'Active'), lt(users.failedAttempts, LIMITS.maxFailedAttempts)),
          and(eq(users.status, 'Locked'), eq(users.lockReason, 'attempts'), lockExpired(users.lockedAt)),
          explainLock ? and(heldLock, lt(users.failedAttempts, LIMITS.maxFailedAttempts)) : sql`false`,
        ),
      ),
    )
    .returning({ failedAttempts: users.failedAttempts, status: users.status, lockReason: users.lockReason });
  if (!row) return undefined;
  if (row.status !== 'Locked') return { attempt: row.failedAttempts };
  return { attempt: row.failedAttempts, heldLock: row.lockReason as Exclude<LockReason, 'attempts'> };
}

/**
 * A success: the count starts again from zero; `signedIn` when the user reached a full session (last
 * sign-in time); `audit` writes the event in the same statement (one round trip and one commit on the
 * sign-in path, issue 6).
 */
export async function recordSuccess(
  db: Executor,
  userPk: number,
  options: { signedIn?: boolean; audit?: { event: AuditEvent; entry: AuditEntry } } = {},
): Promise<void> {
  const update = sql`update ${users} set failed_attempts = 0, updated_at = now()${
    options.signedIn ? sql`, last_login_at = now()` : sql``
  } where id = ${userPk}`;
  await db.execute(
    options.audit
      ? sql`with success as (${update}) ${auditInsert(options.audit.event, options.audit.entry)}`
      : update,
  );
}

/** The user reached a full session (after a second factor that recorded its own success). */
export async function markSignedIn(db: Executor, userPk: number): Promise<void> {
  await db.update(users).set({ lastLoginAt: sql`now()` }).where(eq(users.id, userPk));
}

/**
 * Why a user is locked (`users.lock_reason`): `attempts` — six failed guesses, lifts by itself after
 * LIMITS.lockMinutes; `admin` — an administrator locked the user; `temporary-expired` — the user
 * presented a temporary password past its 24 hours (seed 001 §4 "a one-time password expires and locks
 * the user"). Only `attempts` lifts by itself; the others only an administrator's unlock lifts.
 */
export type LockReason = 'attempts' | 'admin' | 'temporary-expired';

/**
 * Locks an active user for a reason only an administrator lifts, in one statement with its audit row.
 * The failed-attempt count stays as it is (a lock is not a success).
 */
export async function lockUser(
  db: Executor,
  userPk: number,
  reason: Exclude<LockReason, 'attempts'>,
  audit: { event: AuditEvent; entry: AuditEntry },
): Promise<void> {
  await db.execute(
    sql`with locked as (update ${users} set status = 'Locked', locked_at = now(), lock_reason = ${reason},
      updated_at = now() where id = ${userPk} and status = 'Active' returning id)
      ${auditInsert(audit.event, audit.entry)}`,
  );
}

/** Locks the user once the reserved failures reach the maximum. Returns true when locked. */
export async function lockIfExhausted(db: Executor, userPk: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({
      status: 'Locked',
      lockedAt: sql`now()`,
      lockReason: 'attempts' satisfies LockReason,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(users.id, userPk),
        eq(users.status, 'Active'),
        gte(users.failedAttempts, LIMITS.maxFailedAttempts),
      ),
    )
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Counts a failed sign-in for a user ID that does not exist, keyed by a keyed hash of the ID, so that
 * unknown IDs lock after the same number of attempts as known ones. Returns the failure count.
 */
export async function recordUnknownFailure(db: Executor, keyHash: string): Promise<number> {
  const expired = sql`(${unknownAttempts.lockedAt} is not null and ${lockExpired(unknownAttempts.lockedAt)})`;
  const next = sql`case when ${expired} then 1 else least(${unknownAttempts.failures} + 1, ${LIMITS.maxFailedAttempts}) end`;
  const [row] = await db
    .insert(unknownAttempts)
    .values({ keyHash, failures: 1 })
    .onConflictDoUpdate({
      target: unknownAttempts.keyHash,
      set: {
        failures: next,
        lockedAt: sql`case when ${expired} then null when ${next} >= ${LIMITS.maxFailedAttempts} then coalesce(${unknownAttempts.lockedAt}, now()) else ${unknownAttempts.lockedAt} end`,
        updatedAt: sql`now()`,
      },
    })
    .returning({ failures: unknownAttempts.failures });
  return row?.failures ?? 1;
}

/**
 * The most unknown-ID counters kept after a purge (docs/jobs.md, Bounds). Each distinct unknown user ID
 * tried adds a row; the age rule alone would let a flood of distinct IDs grow the table for a day.
 */
export const UNKNOWN_ATTEMPTS_CAP = 5_000;

/**
 * Keeps `unknown_attempts` bounded (the `users.purge-unknown-attempts` job, every minute): forgets the
 * counters quiet for a day, then, past `cap` rows, the least telling ones — unlocked counters before
 * locked ones (a locked unknown ID must stay locked like a known user, or the lock would tell the two
 * apart), the longest quiet first. After a purge the table holds at most `cap` rows. Returns how many
 * rows it deleted.
 */
export async function purgeUnknownAttempts(db: Executor, cap = UNKNOWN_ATTEMPTS_CAP): Promise<number> {
  const quiet = await db
    .delete(unknownAttempts)
    .where(sql`${unknownAttempts.updatedAt} < now() - interval '1 day'`)
    .returning({ keyHash: unknownAttempts.keyHash });
  const kept = db
    .select({ keyHash: unknownAttempts.keyHash })
    .from(unknownAttempts)
    .orderBy(
      desc(sql`${unknownAttempts.lockedAt} is not null`),
      desc(unknownAttempts.updatedAt),
      asc(unknownAttempts.keyHash),
    )
    .limit(cap);
  const excess = await db
    .delete(unknownAttempts)
    .where(notInArray(unknownAttempts.keyHash, kept))
    .returning({ keyHash: unknownAttempts.keyHash });
  return quiet.length + excess.length;
}

export type GuardedResult = 'ok' | 'failed' | 'locked';

/**
 * Runs one guess (password, code, answer, passcode) under the lockout rule: the guess is reserved
 * first, evaluated, and a failure that exhausts the allowance locks the user. `verify` runs only
 * when a guess could be reserved; otherwise `spend` burns the same time (a dummy hash). `evaluated`
 * tells the audit trail whether the guess was actually checked (false: refused by the lock).
 */
export async function guardedAttempt(
  db: Executor,
  userPk: number,
  verify: () => Promise<boolean>,
  spend: () => Promise<unknown>,
  options: {
    /** The caller records the success itself, with `recordSuccess`, once it knows what to record with it. */
    deferSuccess?: boolean;
    /**
     * For a user an administrator locked: check the guess anyway, counted (reserveAttempt), and name
     * the lock's reason when it was right — the sign-in's password, never a second factor.
     */
    explainLock?: boolean;
  } = {},
): Promise<{
  result: GuardedResult;
  attempt: number;
  evaluated: boolean;
  /** Locked for this reason, told because the guess was right. */
  lockReason?: Exclude<LockReason, 'attempts'>;
}> {
  const reserved = await reserveAttempt(db, userPk, options.explainLock);
  if (reserved === undefined) {
    await spend();
    return { result: 'locked', attempt: LIMITS.maxFailedAttempts, evaluated: false };
  }
  const { attempt, heldLock } = reserved;
  if (heldLock) {
    // The same one hash as any guess: a right guess is no failure, so the count starts again.
    if (!(await verify())) return { result: 'locked', attempt, evaluated: true };
    await recordSuccess(db, userPk);
    return { result: 'locked', attempt, evaluated: true, lockReason: heldLock };
  }
  if (await verify()) {
    if (!options.deferSuccess) await recordSuccess(db, userPk);
    return { result: 'ok', attempt, evaluated: true };
  }
  if (attempt >= LIMITS.maxFailedAttempts) {
    await lockIfExhausted(db, userPk);
    return { result: 'locked', attempt, evaluated: true };
  }
  return { result: 'failed', attempt, evaluated: true };
}
