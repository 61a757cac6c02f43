import {
  canonicalUserId,
  LIMITS,
  normaliseAnswer,
  SECURITY_ANSWER_MAX_LENGTH,
  SECURITY_QUESTION_IDS,
} from '@cardportal/domain';
import { and, eq, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordHistory, securityAnswers, sessions, users } from '../../db/schema.ts';
import { audit } from '../../kernel/audit.ts';
import { enqueueMail, type OutgoingMail } from '../../kernel/outbox.ts';
import type { Secrets } from '../../kernel/secrets.ts';
import { newPasswordProblems } from '../../security/common-passwords.ts';
import { keyedHash } from '../../security/crypto.ts';
import { generatedPassword } from '../../security/generated-password.ts';
import { hashSecret, verifyDummy, verifySecret } from '../../security/hashing.ts';
import { expiryFromNow, passwordPolicyOf } from '../issuers/index.ts';
import type { MailKind } from '../mail/index.ts';
import {
  findUserByPk,
  findUserByUserId,
  guardedAttempt,
  recentPasswordHashes,
  recordUnknownFailure,
  type UserRow,
} from '../users/index.ts';

export class PasswordError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    /** More of the answer (password.policy: the problems and the user's minimum length). */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type Composer = (
  kind: MailKind,
  user: UserRow,
  context: { cobrand: string; locale: string },
  args: string[],
) => Promise<OutgoingMail>;

/** Forgot-password and change-password (DESIGN §5, seed 001 §5). */
export class PasswordService {
  constructor(
    private readonly db: Db,
    private readonly secrets: Secrets,
    private readonly composeMail: Composer,
  ) {}

  /** The user's security question; a stable decoy for an unknown ID. */
  async question(rawUserId: string): Promise<string> {
    const canonical = canonicalUserId(rawUserId);
    const mac = keyedHash(this.secrets.hmac, 'decoy-question', canonical);
    const decoy =
      SECURITY_QUESTION_IDS[Number.parseInt(mac.slice(0, 8), 16) % SECURITY_QUESTION_IDS.length] ?? 'q1';
    // PostgreSQL text cannot hold NUL (the query would fail); no user ID contains one: the decoy.
    if (canonical.includes('\u0000')) return decoy;
    // One statement answering one row of one shape whether or not the user exists (the decoy filled in
    // by the database), so neither the answer nor the time taken tells which.
    const result = await this.db.execute(sql`
      select coalesce(sa.question_id, ${decoy}) as question_id
      from (select 1) as one
      left join ${users} u on u.user_id = ${canonical}
      left join ${securityAnswers} sa on sa.user_pk = u.id`);
    // Both drivers (node-postgres, PGlite) answer { rows }.
    return (result as unknown as { rows: { question_id: string }[] }).rows[0]?.question_id ?? decoy;
  }

  /**
   * Checks the answer and, when right, gives the user a temporary password (forced change at next
   * sign-in, 24 hours) and writes its mail to the outbox in the same transaction.
   */
  async forgotPassword(input: {
    userId: string;
    questionId: string;
    answer: string;
    locale: string;
    cobrand?: string;
    ip: string;
  }): Promise<void> {
    const answer = normaliseAnswer(input.answer);
    if (answer.length === 0) throw new PasswordError('answer.required', 'The security answer is required');
    const spend = () => verifyDummy(answer.slice(0, SECURITY_ANSWER_MAX_LENGTH));
    const found = await findUserByUserId(this.db, input.userId);
    // An inactive user answers exactly as an unknown ID (counted and locked alike), so nothing tells them apart.
    const user = found?.status === 'Inactive' ? undefined : found;
    if (!user) {
      await spend();
      const failures = await recordUnknownFailure(
        this.db,
        keyedHash(this.secrets.hmac, 'unknown-user', canonicalUserId(input.userId)),
      );
      await audit(this.db, 'login.failure', {
        ip: input.ip,
        detail: { known: false, factor: 'security-answer' },
      });
      if (failures >= LIMITS.maxFailedAttempts) throw new PasswordError('user.locked', 'user account locked');
      throw new PasswordError('answer.wrong', 'Wrong Response');
    }
    const [stored] = await this.db.select().from(securityAnswers).where(eq(securityAnswers.userPk, user.id));
    const verify = async () =>
      stored !== undefined &&
      stored.questionId === input.questionId &&
      answer.length <= SECURITY_ANSWER_MAX_LENGTH &&
      (await verifySecret(stored.answerHash, answer));
    const { result, evaluated } = await guardedAttempt(this.db, user.id, verify, spend);
    if (result !== 'ok') {
      await audit(this.db, result === 'locked' ? 'login.locked' : 'login.failure', {
        userPk: user.id,
        ip: input.ip,
        detail: { factor: 'security-answer', evaluated },
      });
      if (result === 'locked') throw new PasswordError('user.locked', 'user account locked');
      throw new PasswordError('answer.wrong', 'Wrong Response');
    }
    // Refused before a first sign-in (seed 001) — said only to someone who knew the answer, so the call
    // does not tell strangers which IDs exist and have never been used.
    if (user.firstLogin) {
      throw new PasswordError('forgot.firstLogin', 'Forgot password cannot be used before your first login');
    }
    // Temporary passwords meet the user's issuer's minimum length too, and are never common.
    const policy = await passwordPolicyOf(this.db, user);
    const temporary = generatedPassword(user.displayUserId, policy.passwordMinLength);
    const hash = await hashSecret(temporary);
    const mail = await this.composeMail(
      'temporary-password',
      user,
      { cobrand: input.cobrand ?? user.cobrand, locale: input.locale },
      [temporary],
    );
    await this.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          passwordHash: hash,
          passwordTemporary: true,
          passwordChangedAt: sql`now()`,
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, user.id));
      await tx
        .insert(passwordHistory)
        .values({ userPk: user.id, passwordHash: hash, createdAt: sql`clock_timestamp()` });
      await enqueueMail(tx, mail);
      // A reset signs out every session of the user: whoever held one no longer knows the password.
      await tx.delete(sessions).where(eq(sessions.userPk, user.id));
    });
    await audit(this.db, 'password.reset', { userPk: user.id, ip: input.ip });
  }

  /**
   * Changes the password of the session's user: the current one must match (a wrong one counts toward
   * the lock), the new one must meet the construction rules and differ from the last four.
   */
  async changePassword(
    userPk: number,
    input: {
      userId: string;
      oldCredential: string;
      newCredential: string;
      ip: string;
      /** The id hash of the session making the change: it stays, every other session of the user ends. */
      keepSession?: string;
      /** Co-brand and language of the notice mail (default: the user's). */
      cobrand?: string;
      locale?: string;
    },
  ): Promise<void> {
    const user = await findUserByPk(this.db, userPk);
    if (!user || canonicalUserId(input.userId) !== user.userId) {
      throw new PasswordError('user.mismatch', 'userId is not the signed-in user', 403);
    }
    const { oldCredential, newCredential } = input;
    const tooLong = oldCredential.length > LIMITS.credentialMaxLength;
    const { result, evaluated } = await guardedAttempt(
      this.db,
      user.id,
      () =>
        tooLong || oldCredential.length === 0
          ? verifyDummy('x')
          : verifySecret(user.passwordHash, oldCredential),
      () => verifyDummy('x'),
    );
    if (result === 'locked') {
      await audit(this.db, 'login.locked', {
        userPk: user.id,
        ip: input.ip,
        detail: { factor: 'change-password', evaluated },
      });
      throw new PasswordError('user.locked', 'user account locked', 423);
    }
    if (result === 'failed') {
      await audit(this.db, 'login.failure', {
        userPk: user.id,
        ip: input.ip,
        detail: { factor: 'change-password', evaluated },
      });
      throw new PasswordError('invalid.credentials', 'current password does not match');
    }
    // The user's issuer's settings (seed 001 §5): its minimum length here, its duration for the expiry.
    const policy = await passwordPolicyOf(this.db, user);
    const problems = newPasswordProblems(newCredential, user.displayUserId, policy);
    if (problems.length === 0) {
      const recent = await recentPasswordHashes(this.db, user.id, LIMITS.passwordHistory);
      for (const hash of recent) {
        if (await verifySecret(hash, newCredential)) {
          problems.push('recentlyUsed');
          break;
        }
      }
    }
    if (problems.length > 0) {
      // Spec §8: password.policy marks the new password; `problems` says which rule (the portal names a
      // common password), `minLength` the user's minimum (its issuer's, which the portal cannot know).
      const common = problems.includes('common') ? ' (it is a commonly used password)' : '';
      throw new PasswordError(
        'password.policy',
        `password breaks the rules: ${problems.join(', ')}${common}`,
        400,
        { problems, minLength: policy.passwordMinLength },
      );
    }
    const hash = await hashSecret(newCredential);
    const notice = await this.composeMail(
      'password-changed',
      user,
      { cobrand: input.cobrand ?? user.cobrand, locale: input.locale ?? user.locale },
      [user.displayUserId],
    );
    await this.db.transaction(async (tx) => {
      // Only over the password that was checked: of two changes racing from the same current password
      // (two tabs, two instances), the second finds it replaced and fails as a wrong current password.
      const changed = await tx
        .update(users)
        .set({
          passwordHash: hash,
          passwordChangedAt: sql`now()`,
          passwordExpiresAt: expiryFromNow(policy),
          passwordTemporary: false,
          firstLogin: false,
          updatedAt: sql`now()`,
        })
        .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)))
        .returning({ id: users.id });
      if (changed.length === 0) {
        throw new PasswordError('invalid.credentials', 'current password does not match');
      }
      // clock_timestamp(), not the transaction's start: the history's order is the order of the changes.
      await tx
        .insert(passwordHistory)
        .values({ userPk: user.id, passwordHash: hash, createdAt: sql`clock_timestamp()` });
      // Keep the last four (seed 001 §5).
      const keep = tx
        .select({ id: passwordHistory.id })
        .from(passwordHistory)
        .where(eq(passwordHistory.userPk, user.id))
        .orderBy(sql`${passwordHistory.createdAt} desc, ${passwordHistory.id} desc`)
        .limit(LIMITS.passwordHistory);
      await tx
        .delete(passwordHistory)
        .where(and(eq(passwordHistory.userPk, user.id), notInArray(passwordHistory.id, keep)));
      // The owner hears of the change by mail, committed with it.
      await enqueueMail(tx, notice);
      // A changed password signs out every other session of the user (ASVS V3.3.3).
      await tx
        .delete(sessions)
        .where(
          input.keepSession
            ? and(eq(sessions.userPk, user.id), ne(sessions.idHash, input.keepSession))
            : eq(sessions.userPk, user.id),
        );
    });
    await audit(this.db, 'password.changed', { userPk: user.id, ip: input.ip });
  }
}
