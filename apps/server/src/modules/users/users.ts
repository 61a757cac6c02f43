import {
  canonicalUserId,
  checkEmail,
  checkNewUserId,
  checkSecurityAnswer,
  LIMITS,
  type LoginType,
  normaliseAnswer,
  type ScopeField,
  SECURITY_QUESTION_IDS,
  type UserStatus,
  type UserType,
} from '@cardportal/domain';
import { and, desc, eq, notInArray, type SQL, sql } from 'drizzle-orm';
import { type Db, type Executor, queryRows } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { cardholders, passwordHistory, securityAnswers, sessions, users } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { enqueueMail, type OutgoingMail } from '../../kernel/outbox.ts';
import { newPasswordProblems } from '../../security/common-passwords.ts';
import { newLdapId } from '../../security/crypto.ts';
import { generatedPassword } from '../../security/generated-password.ts';
import { hashSecret } from '../../security/hashing.ts';
import { expiryFromNow, passwordPolicyOf } from '../issuers/index.ts';
import type { NewCardholder } from '../organisations/index.ts';

export type UserRow = typeof users.$inferSelect;

/**
 * Why the password forms (sign-in, forgot password) treat an existing user as an unknown ID, if they
 * do: an inactive user, and an SSO user, who holds no portal password (docs/sso.md). Both answer exactly
 * as an unknown ID and are counted as one, never on the user's own count.
 */
export function refusedAtPasswordForms(
  user: Pick<UserRow, 'status' | 'sso'> | undefined,
): 'inactive' | 'sso-enforced' | undefined {
  if (!user) return undefined;
  return user.status === 'Inactive' ? 'inactive' : user.sso ? 'sso-enforced' : undefined;
}

/** refusedAtPasswordForms in SQL over a `users` row under `alias` (claimGuess): the reason, or null. */
export const refusedAtPasswordFormsSql = (alias: SQL): SQL =>
  sql`(case when ${alias}.status = 'Inactive' then 'inactive' when ${alias}.sso then 'sso-enforced' end)`;

/** User data access shared by sign-in, the application and the admin CLI. */
export async function findUserByUserId(db: Executor, rawUserId: string): Promise<UserRow | undefined> {
  const userId = canonicalUserId(rawUserId);
  // PostgreSQL text cannot hold NUL (the query would fail with a 500); no user ID contains one.
  if (userId.includes('\u0000')) return undefined;
  const [row] = await db.select().from(users).where(eq(users.userId, userId)).limit(1);
  return row;
}

export async function findUserByPk(db: Executor, pk: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, pk)).limit(1);
  return row;
}

export interface NewUser {
  userId: string;
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  loginType?: LoginType;
  userType?: UserType;
  cobrand: string;
  locale?: string;
  sso?: boolean;
  /** Password already expired: the next sign-in must change it. */
  expired?: boolean;
  /** Never signed in: the next sign-in must change the password; forgot-password is refused. */
  firstLogin?: boolean;
  status?: UserStatus;
  /** Security question and answer for forgot-password (question defaults to the catalogue's first). */
  question?: string;
  answer?: string;
  /**
   * Placement in the organisation (packages/domain USER_TYPE_INFO says which columns a type needs;
   * callers that place users check it with checkUserScope). Unset columns stay empty.
   */
  scope?: Partial<Record<ScopeField, number | null>>;
  /** A cardholder to create with the user (type A), in the same transaction; it becomes its cardholder. */
  newCardholder?: NewCardholder;
  role?: string | null;
}

export async function createUser(db: Db, input: NewUser): Promise<UserRow> {
  const idProblems = checkNewUserId(input.userId);
  if (idProblems.length > 0)
    throw new AppError('invalid', 'userId.invalid', {
      message: `user ID is invalid: ${idProblems.join(', ')}`,
      fieldErrors: { userId: 'userId.invalid' },
    });
  const emailProblem = checkEmail(input.email);
  if (emailProblem)
    throw new AppError('invalid', 'email.invalid', {
      message: `e-mail address is invalid: ${emailProblem}`,
      fieldErrors: { email: 'email.invalid' },
    });
  // The rules every new password meets (construction with the user's issuer's minimum, not common).
  const policy = await passwordPolicyOf(db, input.scope ?? {});
  const pwProblems = newPasswordProblems(input.password, input.userId, policy);
  if (pwProblems.includes('common')) {
    throw new AppError('invalid', 'password.invalid', {
      message:
        'password is too common: it is on the list of commonly used passwords (or is one with digits or symbols added); choose another',
      fieldErrors: { password: 'password.invalid' },
    });
  }
  if (pwProblems.length > 0) {
    throw new AppError('invalid', 'password.invalid', {
      message: `password breaks the construction rules (${policy.passwordMinLength}-${LIMITS.passwordMaxLength} characters): ${pwProblems.join(', ')}`,
      fieldErrors: { password: 'password.invalid' },
    });
  }
  const passwordHash = await hashSecret(input.password);
  if (
    input.question !== undefined &&
    !(SECURITY_QUESTION_IDS as readonly string[]).includes(input.question)
  ) {
    throw new AppError('invalid', 'question.invalid', {
      message: `question must be one of ${SECURITY_QUESTION_IDS.join(', ')}`,
      fieldErrors: { question: 'question.invalid' },
    });
  }
  let answerHash: string | undefined;
  if (input.answer !== undefined) {
    const answerProblems = checkSecurityAnswer(input.answer.trim());
    if (answerProblems.length > 0)
      throw new AppError('invalid', 'answer.invalid', {
        message: `security answer is invalid: ${answerProblems.join(', ')}`,
        fieldErrors: { answer: 'answer.invalid' },
      });
    answerHash = await hashSecret(normaliseAnswer(input.answer));
  }
  const ldapId = newLdapId();
  return db.transaction(async (tx) => {
    const existing = await findUserByUserId(tx, input.userId);
    if (existing) {
      throw new AppError('conflict', 'user.exists', {
        message: 'The User ID you specified already exists in the application. Please try again.',
        fieldErrors: { userId: 'user.exists' },
      });
    }
    let cardholderId = input.scope?.cardholderId ?? null;
    if (input.newCardholder) {
      const [cardholder] = await tx.insert(cardholders).values(input.newCardholder).returning();
      cardholderId = cardholder?.id ?? null;
    }
    const [row] = await tx
      .insert(users)
      .values({
        userId: canonicalUserId(input.userId),
        displayUserId: input.userId,
        ldapId,
        b2bAlias: `b2b-${canonicalUserId(input.userId)}`,
        email: input.email,
        firstName: input.firstName ?? '',
        lastName: input.lastName ?? '',
        userType: input.userType ?? 'A',
        status: input.status ?? 'Active',
        loginType: input.loginType ?? 'pwd',
        sso: input.sso ?? false,
        cobrand: input.cobrand,
        locale: input.locale ?? 'en_US',
        passwordHash,
        // Seed 001 §5: a password lasts the issuer's duration (30–90 days; 90 without an issuer).
        passwordExpiresAt: input.expired ? new Date(Date.now() - 60_000) : expiryFromNow(policy),
        firstLogin: input.firstLogin ?? false,
        lockedAt: input.status === 'Locked' ? new Date() : null,
        lockReason: input.status === 'Locked' ? 'admin' : null,
        failedAttempts: 0,
        ...input.scope,
        cardholderId,
        role: input.role ?? null,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await tx.insert(passwordHistory).values({ userPk: row.id, passwordHash });
    if (answerHash) {
      await tx
        .insert(securityAnswers)
        .values({ userPk: row.id, questionId: input.question ?? SECURITY_QUESTION_IDS[0], answerHash });
    }
    return row;
  });
}

/** Lifts a lock (administrator action): status Active, failed attempts zero. */
/** Composes the mail that carries a new temporary password, in the given transaction. */
export type TemporaryPasswordMail = (user: UserRow, password: string, tx: Executor) => Promise<OutgoingMail>;

/**
 * Lifts a locked user's lock — the one way for the application (People → unlock) and the CLI (`user
 * unlock`). A user locked by an expired temporary password ("temporary password expired, contact
 * administrator") also gets a new temporary password (the issuer's minimum length, never a common one,
 * valid 24 hours, change forced), mailed in the same transaction: the expired one would only lock again.
 * Call it in a transaction. Undefined when the user is not locked (nothing is written).
 */
export async function unlockUser(
  tx: Executor,
  user: UserRow,
  temporaryMail: TemporaryPasswordMail,
): Promise<UserRow | undefined> {
  let renewal: { password: string; hash: string } | undefined;
  if (user.lockReason === 'temporary-expired') {
    const policy = await passwordPolicyOf(tx, user);
    const password = generatedPassword(user.displayUserId, policy.passwordMinLength);
    renewal = { password, hash: await hashSecret(password) };
  }
  const [row] = await tx
    .update(users)
    .set({
      status: 'Active',
      failedAttempts: 0,
      lockedAt: null,
      lockReason: null,
      updatedAt: sql`now()`,
      ...(renewal
        ? { passwordHash: renewal.hash, passwordTemporary: true, passwordChangedAt: sql`now()` }
        : {}),
    })
    .where(and(eq(users.id, user.id), eq(users.status, 'Locked')))
    .returning();
  if (!row) return undefined;
  if (renewal) {
    await recordPassword(tx, row.id, renewal.hash);
    await enqueueMail(tx, await temporaryMail(row, renewal.password, tx));
  }
  return row;
}

/**
 * Adds a password to the user's history and keeps the last LIMITS.passwordHistory (seed 001 §5).
 * clock_timestamp(), not the transaction's start: the history's order is the order of the changes.
 */
export async function recordPassword(db: Executor, userPk: number, passwordHash: string): Promise<void> {
  await db.insert(passwordHistory).values({ userPk, passwordHash, createdAt: sql`clock_timestamp()` });
  const keep = db
    .select({ id: passwordHistory.id })
    .from(passwordHistory)
    .where(eq(passwordHistory.userPk, userPk))
    .orderBy(sql`${passwordHistory.createdAt} desc, ${passwordHistory.id} desc`)
    .limit(LIMITS.passwordHistory);
  await db
    .delete(passwordHistory)
    .where(and(eq(passwordHistory.userPk, userPk), notInArray(passwordHistory.id, keep)));
}

/** Gives the user a temporary password (a reset): it must change it at its next sign-in. */
export async function setTemporaryPassword(
  db: Executor,
  userPk: number,
  passwordHash: string,
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, passwordTemporary: true, passwordChangedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(users.id, userPk));
  await recordPassword(db, userPk, passwordHash);
}

/**
 * Replaces the user's password, only over the one that was checked (`checkedHash`): of two changes
 * racing from the same current password (two tabs, two instances), the second finds it replaced and
 * answers false. Records it in the history.
 */
export async function replacePassword(
  db: Executor,
  userPk: number,
  change: { checkedHash: string; passwordHash: string; expiresAt: SQL | Date | null },
): Promise<boolean> {
  const changed = await db
    .update(users)
    .set({
      passwordHash: change.passwordHash,
      passwordChangedAt: sql`now()`,
      passwordExpiresAt: change.expiresAt,
      passwordTemporary: false,
      firstLogin: false,
      updatedAt: sql`now()`,
    })
    .where(and(eq(users.id, userPk), eq(users.passwordHash, change.checkedHash)))
    .returning({ id: users.id });
  if (changed.length === 0) return false;
  await recordPassword(db, userPk, change.passwordHash);
  return true;
}

/** The user's security question and the hash of its answer, if it has set one. */
export async function securityAnswerOf(db: Executor, userPk: number) {
  const [row] = await db.select().from(securityAnswers).where(eq(securityAnswers.userPk, userPk));
  return row;
}

/** Sets (or replaces) the user's security question and answer hash. */
export async function saveSecurityAnswer(
  db: Executor,
  userPk: number,
  answer: { questionId: string; answerHash: string },
): Promise<void> {
  await db
    .insert(securityAnswers)
    .values({ userPk, ...answer })
    .onConflictDoUpdate({ target: securityAnswers.userPk, set: { ...answer, updatedAt: new Date() } });
}

/** Changes a user's own settings (language, sign-in type) — a language change reaches its sessions too. */
export async function updateOwnSettings(
  db: Executor,
  userPk: number,
  values: { locale?: string; loginType?: string },
): Promise<void> {
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, userPk));
  if (values.locale !== undefined)
    await db.update(sessions).set({ locale: values.locale }).where(eq(sessions.userPk, userPk));
}

/** The login descriptor's statement, on every sign-in: prepared (issue 19). */
const ldapIdStatement = preparedStatement<{ ldapId: string }>(
  'users_ldap_id_or_decoy',
  sql`select coalesce(u.ldap_id, ${sql.placeholder('decoy')}) as "ldapId"
    from (select 1) as one
    left join ${users} u on u.user_id = ${sql.placeholder('userId')}`,
);
/**
 * The user's ldap id, or the decoy's when no user has this (canonical) ID: one statement answering one
 * row of one shape either way, the decoy filled in by the database, so neither the answer nor the time
 * taken tells which (DESIGN §5).
 */
export async function ldapIdOrDecoy(db: Executor, canonicalId: string, decoy: string): Promise<string> {
  const [row] = await ldapIdStatement(db, { userId: canonicalId, decoy });
  return row?.ldapId ?? decoy;
}

/** The user's security question, or the decoy when it has none or no user has this ID (as above). */
export async function questionIdOrDecoy(db: Executor, canonicalId: string, decoy: string): Promise<string> {
  const [row] = await queryRows<{ question_id: string }>(
    db,
    sql`select coalesce(sa.question_id, ${decoy}) as question_id
      from (select 1) as one
      left join ${users} u on u.user_id = ${canonicalId}
      left join ${securityAnswers} sa on sa.user_pk = u.id`,
  );
  return row?.question_id ?? decoy;
}

export async function recentPasswordHashes(db: Executor, userPk: number, count: number): Promise<string[]> {
  const rows = await db
    .select({ hash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.userPk, userPk))
    .orderBy(desc(passwordHistory.createdAt), desc(passwordHistory.id))
    .limit(count);
  return rows.map((r) => r.hash);
}

/** The user as the CLI shows it: never the password hash. */
export function describeUser(user: UserRow): Record<string, unknown> {
  const { passwordHash: _hash, ...rest } = user;
  return rest;
}
