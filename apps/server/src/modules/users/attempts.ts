import { canonicalUserId, LIMITS } from '@cardportal/domain';
import { and, asc, desc, eq, getTableColumns, gte, lt, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedStatement, rowOf, type StatementTemplate } from '../../db/prepared.ts';
import { unknownAttempts, users } from '../../db/schema.ts';
import {
  type AuditEntry,
  type AuditEvent,
  auditInsert,
  auditInsertTemplate,
  auditValues,
} from '../../kernel/audit.ts';
import { refusedAtPasswordFormsSql, type UserRow } from './users.ts';

const lockExpired = (column: typeof users.lockedAt | typeof unknownAttempts.lockedAt) =>
  sql`${column} < now() - make_interval(mins => ${LIMITS.lockMinutes})`;

/** Locks that only an administrator's unlock lifts. */
const heldLock = sql`${users.status} = 'Locked' and ${users.lockReason} in ('admin', 'temporary-expired')`;

/** The allowance's rule, in SQL over the `users` row: the fragments reserveAttempt and claimGuess share. */
const nextAttempts = sql`case when ${users.status} = 'Locked' and ${users.lockReason} = 'attempts' then 1 else ${users.failedAttempts} + 1 end`;
const keptStatus = sql`case when ${heldLock} then ${users.status} else 'Active' end`;
const keptLockedAt = sql`case when ${heldLock} then ${users.lockedAt} else null end`;
const keptLockReason = sql`case when ${heldLock} then ${users.lockReason} else null end`;
const reservable = (explainLock: boolean) =>
  or(
    and(eq(users.status, 'Active'), lt(users.failedAttempts, LIMITS.maxFailedAttempts)),
    and(eq(users.status, 'Locked'), eq(users.lockReason, 'attempts'), lockExpired(users.lockedAt)),
    explainLock ? and(heldLock, lt(users.failedAttempts, LIMITS.maxFailedAttempts)) : sql`false`,
  );

/** A reserved guess: its number and, for a user an administrator locked (explainLock), the lock's reason. */
export type Reservation = { attempt: number; heldLock?: Exclude<LockReason, 'attempts'> };

const reservationOf = (row: { failedAttempts: number; status: string; lockReason: string | null }) =>
  row.status !== 'Locked'
    ? { attempt: row.failedAttempts }
    : { attempt: row.failedAttempts, heldLock: row.lockReason as Exclude<LockReason, 'attempts'> };

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
): Promise<Reservation | undefined> {
  const [row] = await db
    .update(users)
    .set({
      failedAttempts: nextAttempts,
      status: keptStatus,
      lockedAt: keptLockedAt,
      lockReason: keptLockReason,
    })
    .where(and(eq(users.id, userPk), reservable(explainLock)))
    .returning({ failedAttempts: users.failedAttempts, status: users.status, lockReason: users.lockReason });
  return row ? reservationOf(row) : undefined;
}

/** What claimGuess found: the user (if the ID has one), the guess reserved for it, and `standing`. */
export interface Claim {
  user: UserRow | undefined;
  /** Undefined when no guess may be checked: no user, a refused one (refusedAtPasswordForms), or locked. */
  reservation: Reservation | undefined;
  /** The caller's extra condition on the user, evaluated in the same statement. */
  standing: boolean;
}

/**
 * The first factor's lookup and reservation in one statement and one round trip (the sign-in's hot
 * path, issue 19): the user of a user ID, and — unless refusedAtPasswordForms refuses them — a guess
 * reserved exactly as reserveAttempt does (explainLock on). `standing` is a condition on the user's
 * primary key the caller wants with it (the sign-in's organisation check). A prepared statement.
 */
/**
 * The user's columns by name, not `u.*`: a prepared statement's result must keep its shape, and a
 * migration adding a column while a server runs (another instance deploying) would otherwise fail it
 * with "cached plan must not change result type" on every connection that prepared it.
 */
const userColumns = sql.join(
  Object.values(getTableColumns(users)).map((column) => sql`u.${sql.identifier(column.name)}`),
  sql`, `,
);

export function claimGuess(
  name: string,
  standing: (userPk: SQL) => SQL<boolean>,
): (db: Executor, rawUserId: string) => Promise<Claim> {
  const statement = preparedStatement<
    Record<string, unknown> & {
      reserved_attempt: number | null;
      reserved_status: string | null;
      reserved_lock_reason: string | null;
      standing: boolean;
    }
  >(
    name,
    sql`with u as (select * from ${users} where ${users.userId} = ${sql.placeholder('userId')} limit 1),
      r as (update ${users} set failed_attempts = ${nextAttempts}, status = ${keptStatus},
          locked_at = ${keptLockedAt}, lock_reason = ${keptLockReason}
        from u where ${users.id} = u.id and ${refusedAtPasswordFormsSql(sql`u`)} is null and (${reservable(true)})
        returning ${users.failedAttempts} as reserved_attempt, ${users.status} as reserved_status,
          ${users.lockReason} as reserved_lock_reason)
      select ${userColumns}, r.reserved_attempt, r.reserved_status, r.reserved_lock_reason, ${standing(sql`u.id`)} as standing
      from u left join r on true`,
  );
  return async (db, rawUserId) => {
    const userId = canonicalUserId(rawUserId);
    // PostgreSQL text cannot hold NUL (the query would fail with a 500); no user ID contains one.
    if (userId.includes('\u0000')) return { user: undefined, reservation: undefined, standing: false };
    const [raw] = await statement(db, { userId });
    if (!raw) return { user: undefined, reservation: undefined, standing: false };
    return {
      user: rowOf(users, raw),
      reservation:
        raw.reserved_attempt === null
          ? undefined
          : reservationOf({
              failedAttempts: raw.reserved_attempt,
              status: raw.reserved_status ?? 'Active',
              lockReason: raw.reserved_lock_reason,
            }),
      standing: raw.standing === true,
    };
  };
}

/**
 * The statements of a success: the count starts again from zero; `signedIn` when the user reached a
 * full session (last sign-in time); `audit`, its event row (successTemplate: the same, prepared).
 */
function successStatements(
  userPk: number,
  options: { signedIn?: boolean; audit?: { event: AuditEvent; entry: AuditEntry } } = {},
): SQL[] {
  const update = successUpdate(userPk, options.signedIn === true);
  return options.audit ? [update, auditInsert(options.audit.event, options.audit.entry)] : [update];
}

/** The success's update, for a user's key given as a value or a placeholder. */
const successUpdate = (userPk: unknown, signedIn: boolean): SQL =>
  sql`update ${users} set failed_attempts = 0, updated_at = now()${
    signedIn ? sql`, last_login_at = now()` : sql``
  } where id = ${userPk}::integer`;

const successTemplates = {
  signedIn: [successUpdate(sql.placeholder('successUserPk'), true), auditInsertTemplate],
  partial: [successUpdate(sql.placeholder('successUserPk'), false), auditInsertTemplate],
};

/**
 * successStatements with its audit row, as a template for a prepared statement: the sign-in commits it
 * with the new session (sessions.start), one statement whose text is built and planned once (issue 19).
 */
export function successTemplate(
  userPk: number,
  options: { signedIn: boolean; audit: { event: AuditEvent; entry: AuditEntry } },
): StatementTemplate {
  const variant = options.signedIn ? 'signedIn' : 'partial';
  return {
    name: `success_${variant}`,
    parts: successTemplates[variant],
    values: { successUserPk: userPk, ...auditValues(options.audit.event, options.audit.entry) },
  };
}

/**
 * A success (successStatements) in one statement: one round trip and one commit (issue 6).
 */
export async function recordSuccess(
  db: Executor,
  userPk: number,
  options: { signedIn?: boolean; audit?: { event: AuditEvent; entry: AuditEntry } } = {},
): Promise<void> {
  const [update, insert] = successStatements(userPk, options);
  await db.execute(insert ? sql`with success as (${update}) ${insert}` : (update as SQL));
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
  options: GuessOptions = {},
): Promise<GuessResult> {
  return evaluateGuess(
    db,
    userPk,
    await reserveAttempt(db, userPk, options.explainLock),
    verify,
    spend,
    options,
  );
}

interface GuessOptions {
  /** The caller records the success itself, with `recordSuccess`, once it knows what to record with it. */
  deferSuccess?: boolean;
  /**
   * For a user an administrator locked: check the guess anyway, counted (reserveAttempt), and name
   * the lock's reason when it was right — the sign-in's password, never a second factor.
   */
  explainLock?: boolean;
}

interface GuessResult {
  result: GuardedResult;
  attempt: number;
  evaluated: boolean;
  /** Locked for this reason, told because the guess was right. */
  lockReason?: Exclude<LockReason, 'attempts'>;
}

/** The rest of guardedAttempt, for a guess already reserved (or refused: undefined) — by claimGuess. */
export async function evaluateGuess(
  db: Executor,
  userPk: number,
  reserved: Reservation | undefined,
  verify: () => Promise<boolean>,
  spend: () => Promise<unknown>,
  options: GuessOptions = {},
): Promise<GuessResult> {
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
