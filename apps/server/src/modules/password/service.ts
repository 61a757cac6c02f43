import {
  canonicalUserId,
  LIMITS,
  normaliseAnswer,
  SECURITY_ANSWER_MAX_LENGTH,
  SECURITY_QUESTION_IDS,
} from '@cardportal/domain';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { audit } from '../../kernel/audit.ts';
import { enqueueMail, type OutgoingMail } from '../../kernel/outbox.ts';
import type { Secrets } from '../../kernel/secrets.ts';
import { newPasswordProblems } from '../../security/common-passwords.ts';
import { keyedHash } from '../../security/crypto.ts';
import { generatedPassword } from '../../security/generated-password.ts';
import { hashSecret, verifyDummy, verifySecret } from '../../security/hashing.ts';
import { endSessionsOf } from '../../security/sessions.ts';
import { expiryFromNow, passwordPolicyOf } from '../issuers/index.ts';
import type { MailKind } from '../mail/index.ts';
import {
  findUserByPk,
  findUserByUserId,
  guardedAttempt,
  questionIdOrDecoy,
  recentPasswordHashes,
  recordUnknownFailure,
  refusedAtPasswordForms,
  replacePassword,
  securityAnswerOf,
  setTemporaryPassword,
  type UserRow,
} from '../users/index.ts';

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
    return questionIdOrDecoy(this.db, canonical, decoy);
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
    if (answer.length === 0)
      throw new AppError('invalid', 'answer.required', { message: 'The security answer is required' });
    const spend = () => verifyDummy(answer.slice(0, SECURITY_ANSWER_MAX_LENGTH));
    const found = await findUserByUserId(this.db, input.userId);
    // An inactive user answers exactly as an unknown ID (counted and locked alike), so nothing tells them
    // apart; so does an SSO user, who holds no portal password to reset (docs/sso.md) and whose own count
    // a stranger's guesses must not lock.
    const user = refusedAtPasswordForms(found) ? undefined : found;
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
      if (failures >= LIMITS.maxFailedAttempts)
        throw new AppError('invalid', 'user.locked', { message: 'user account locked' });
      throw new AppError('invalid', 'answer.wrong', { message: 'Wrong Response' });
    }
    const stored = await securityAnswerOf(this.db, user.id);
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
      if (result === 'locked')
        throw new AppError('invalid', 'user.locked', { message: 'user account locked' });
      throw new AppError('invalid', 'answer.wrong', { message: 'Wrong Response' });
    }
    // Refused before a first sign-in (seed 001) — said only to someone who knew the answer, so the call
    // does not tell strangers which IDs exist and have never been used.
    if (user.firstLogin) {
      throw new AppError('invalid', 'forgot.firstLogin', {
        message: 'Forgot password cannot be used before your first login',
      });
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
      await setTemporaryPassword(tx, user.id, hash);
      await enqueueMail(tx, mail);
      // A reset signs out every session of the user: whoever held one no longer knows the password.
      await endSessionsOf(tx, user.id);
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
      throw new AppError('forbidden', 'user.mismatch', { message: 'userId is not the signed-in user' });
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
      throw new AppError('locked', 'user.locked', { message: 'user account locked' });
    }
    if (result === 'failed') {
      await audit(this.db, 'login.failure', {
        userPk: user.id,
        ip: input.ip,
        detail: { factor: 'change-password', evaluated },
      });
      throw new AppError('invalid', 'invalid.credentials', { message: 'current password does not match' });
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
      throw new AppError('invalid', 'password.policy', {
        message: `password breaks the rules: ${problems.join(', ')}${common}`,
        extra: { problems, minLength: policy.passwordMinLength },
      });
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
      const changed = await replacePassword(tx, user.id, {
        checkedHash: user.passwordHash,
        passwordHash: hash,
        expiresAt: expiryFromNow(policy),
      });
      if (!changed)
        throw new AppError('invalid', 'invalid.credentials', { message: 'current password does not match' });
      // The owner hears of the change by mail, committed with it.
      await enqueueMail(tx, notice);
      // A changed password signs out every other session of the user (ASVS V3.3.3).
      await endSessionsOf(tx, user.id, input.keepSession);
    });
    await audit(this.db, 'password.changed', { userPk: user.id, ip: input.ip });
  }
}
