import {
  APP_BASE,
  canonicalUserId,
  LIMITS,
  type LockedReason,
  type LoginDescriptor,
  type LoginType,
  portalUrl,
  type SessionStage,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import type { StatementTemplate } from '../../db/prepared.ts';
import { audit } from '../../kernel/audit.ts';
import { enqueueMail, maskEmail, type OutgoingMail } from '../../kernel/outbox.ts';
import type { Secrets } from '../../kernel/secrets.ts';
import { keyedHash, ldapIdOf } from '../../security/crypto.ts';
import { verifyDummy, verifySecret } from '../../security/hashing.ts';
import type { SessionRow } from '../../security/sessions.ts';
import { organisationActiveSql } from '../access/index.ts';
import { checkTokencode, findToken, leaveNextTokenMode, verifyTokenPin } from '../token/index.ts';
import {
  claimGuess,
  evaluateGuess,
  findUserByPk,
  guardedAttempt,
  ldapIdOrDecoy,
  lockUser,
  markSignedIn,
  recordSuccess,
  recordUnknownFailure,
  refusedAtPasswordForms,
  successTemplate,
  type UserRow,
} from '../users/index.ts';
import { consumeOtpCode, issueOtpCode } from './otp-codes.ts';

export interface LoginAttempt {
  username: string;
  password: string;
  ip: string;
  cobrandHost: string | undefined;
  locale: string;
}

export type LoginOutcome =
  | { kind: 'failed' }
  | { kind: 'redirect'; url: string; endSession?: boolean }
  | {
      kind: 'session';
      user: UserRow;
      stage: SessionStage;
      url: string;
      data?: Record<string, unknown>;
      /** Statements to commit with the new session's row (sessions.start `alongside`): the success. */
      alongside?: StatementTemplate;
    };

/** Composes a localised, co-branded mail (the route supplies bundles and co-brand). */
export type MailComposer = (
  kind: 'otp',
  user: UserRow,
  context: { cobrand: string; locale: string },
  args: string[],
  /** The open transaction the mail is composed in (see composeMail). */
  db?: Executor,
) => Promise<OutgoingMail>;

/** The descriptor's login type before sign-in, for every user ID (see `descriptor`). */
const FIRST_STEP_LOGIN_TYPE: LoginType = 'pwd';

/**
 * The first factor's lookup: the user, a guess reserved for them and their company's and issuer's
 * standing, in one prepared statement (issue 19: one round trip where there were three).
 */
const claimFirstFactor = claimGuess('login_claim_first_factor', organisationActiveSql);

/** Temporary passwords (forgot-password) expire after 24 hours (DESIGN §5). */
const TEMPORARY_PASSWORD_MS = 24 * 60 * 60 * 1000;

type Links = {
  cobrandHost: string | undefined;
  locale: string;
};

/**
 * Sign-in (DESIGN §5). Every guess — password, PIN + tokencode, e-mailed code, next tokencode — goes
 * through the same lockout guard. Known and unknown user IDs take the same path: one argon2id
 * verification, one counter update, one audit row, and the same answers.
 */
export class LoginService {
  constructor(
    private readonly db: Db,
    private readonly secrets: Secrets,
    private readonly composeMail: MailComposer,
    private readonly onMail: () => void = () => {},
  ) {}

  /**
   * The login descriptor of a user ID, the same for every ID whether or not a user has it (issue 13
   * item 2): `loginType` is the first step's type, `pwd`, for everyone — the server reads the user's own
   * method (password, e-mailed code, token) from its record once the first factor is presented, and
   * answers the next screen's URL then — so the answer tells nothing before a credential was shown. A
   * user's ldap id is random, an unknown ID's is a stable keyed hash through the same mapping; the
   * alias is derived from the ID alike.
   */
  descriptor(rawUserId: string, ldapId?: string): LoginDescriptor {
    const canonical = canonicalUserId(rawUserId);
    return {
      ldapId: ldapId ?? ldapIdOf(Buffer.from(keyedHash(this.secrets.hmac, 'decoy-ldap', canonical), 'hex')),
      loginType: FIRST_STEP_LOGIN_TYPE,
      b2BAlias: `b2b-${canonical}`,
    };
  }

  /**
   * One statement answering one row of one shape whether or not the user exists — the decoy is filled
   * in by the database — so neither the answer nor the time taken tells which (DESIGN §5).
   */
  async findDescriptor(rawUserId: string): Promise<LoginDescriptor> {
    const decoy = this.descriptor(rawUserId);
    const canonical = canonicalUserId(rawUserId);
    // PostgreSQL text cannot hold NUL; no user ID contains one.
    if (canonical.includes('\u0000')) return decoy;
    return this.descriptor(rawUserId, await ldapIdOrDecoy(this.db, canonical, decoy.ldapId));
  }

  /** The first factor: a password, or for token users the 4-digit PIN followed by the 8-digit tokencode. */
  async primaryLogin(attempt: LoginAttempt): Promise<LoginOutcome> {
    const userId = attempt.username.trim();
    const secret = attempt.password.slice(0, LIMITS.credentialMaxLength + 1);
    const links: Links = { cobrandHost: attempt.cobrandHost, locale: attempt.locale };
    const lockedUrl = portalUrl('locked', links);
    const spend = () => verifyDummy(secret);
    if (!userId || userId.length > LIMITS.userIdMaxLength) {
      await spend();
      return { kind: 'failed' };
    }
    const claim = await claimFirstFactor(this.db, userId);
    const found = claim.user;
    // An SSO user holds no portal password ("SSO enforced", docs/sso.md): they sign in at their provider.
    const refused = refusedAtPasswordForms(found);
    if (found && refused) {
      await audit(this.db, 'login.refused', {
        userPk: found.id,
        ip: attempt.ip,
        detail: refused === 'inactive' ? { status: found.status } : { reason: refused },
      });
    }
    // An inactive or SSO user answers exactly as an unknown ID (counted and locked alike, without touching
    // the user's own count: a password guess must not lock an SSO user out of their provider's sign-in),
    // so nothing tells them apart.
    const user = refused ? undefined : found;
    if (!user) {
      await spend();
      const failures = await recordUnknownFailure(
        this.db,
        keyedHash(this.secrets.hmac, 'unknown-user', canonicalUserId(userId)),
      );
      const locked = failures >= LIMITS.maxFailedAttempts;
      await audit(this.db, locked ? 'login.locked' : 'login.failure', {
        ip: attempt.ip,
        detail: { known: false },
      });
      return locked ? { kind: 'redirect', url: lockedUrl, endSession: true } : { kind: 'failed' };
    }
    const tooLong = secret.length === 0 || secret.length > LIMITS.credentialMaxLength;
    // A token user's token, read once by the passcode check and used again for the stage.
    let token: Awaited<ReturnType<typeof findToken>>;
    const verify =
      user.loginType === 'token'
        ? async () => {
            token = await findToken(this.db, user.id);
            return this.verifyPinAndTokencode(token, secret);
          }
        : () => verifySecret(user.passwordHash, secret);
    const {
      result,
      attempt: attemptNo,
      evaluated,
      lockReason,
    } = await evaluateGuess(this.db, user.id, claim.reservation, tooLong ? spend : verify, spend, {
      deferSuccess: true,
      explainLock: true,
    });
    if (result !== 'ok') {
      await audit(this.db, result === 'locked' ? 'login.locked' : 'login.failure', {
        userPk: user.id,
        ip: attempt.ip,
        detail: {
          attempt: attemptNo,
          factor: 'primary',
          evaluated,
          ...(lockReason ? { reason: lockReason } : {}),
        },
      });
      if (result !== 'locked') return { kind: 'failed' };
      // Locked by an administrator (or by an expired temporary password): whoever gave the right
      // password is told so, not to wait for the attempts' lock to lift (users/attempts.ts explainLock).
      const reason: LockedReason | undefined =
        lockReason === 'admin'
          ? 'locked'
          : lockReason === 'temporary-expired'
            ? 'temporary-expired'
            : undefined;
      return {
        kind: 'redirect',
        url: reason ? portalUrl('locked', { ...links, reason }) : lockedUrl,
        endSession: true,
      };
    }

    if (
      user.loginType !== 'token' &&
      user.passwordTemporary &&
      Date.now() - user.passwordChangedAt.getTime() > TEMPORARY_PASSWORD_MS
    ) {
      // Seed 001 §4: "a one-time password expires and locks the user" — a right but expired temporary
      // password locks the user until an administrator unlocks (not the 30-minute lift of failed
      // attempts), and is told "temporary password expired, contact administrator". Said only to
      // whoever knew the password; the failure count is not reset (it was no success).
      await lockUser(this.db, user.id, 'temporary-expired', {
        event: 'login.locked',
        entry: {
          userPk: user.id,
          ip: attempt.ip,
          detail: { reason: 'temporary-expired', factor: 'primary' },
        },
      });
      return {
        kind: 'redirect',
        url: portalUrl('locked', { ...links, reason: 'temporary-expired' satisfies LockedReason }),
        endSession: true,
      };
    }

    // "locked or inactive user or corp": the user's company or issuer is inactive. Said only to whoever
    // presented the right password (a wrong one counts and locks as for any user), so it tells nothing
    // about which IDs exist; a right password is no failed guess, so the count starts again.
    if (!claim.standing) {
      await recordSuccess(this.db, user.id, {
        audit: {
          event: 'login.refused',
          entry: { userPk: user.id, ip: attempt.ip, detail: { reason: 'organisation-inactive' } },
        },
      });
      return {
        kind: 'redirect',
        url: portalUrl('locked', { ...links, reason: 'inactive' satisfies LockedReason }),
        endSession: true,
      };
    }

    let stage: SessionStage;
    let url: string;
    if (user.loginType === 'otp-2fa') {
      stage = 'otp';
      const delivery = await this.sendCode(user, {
        cobrand: attempt.cobrandHost ?? user.cobrand,
        locale: attempt.locale,
      });
      url = portalUrl('otp', { ...links, delivery });
    } else if (user.loginType === 'token') {
      stage = token?.mode === 'new-pin' ? 'new-pin' : token?.mode === 'next-token' ? 'next-token' : 'full';
      url = stage === 'full' ? APP_BASE : portalUrl(stage, links);
    } else {
      stage = this.passwordStage(user);
      url = stage === 'full' ? APP_BASE : portalUrl(stage, links);
    }
    // The success is committed with the session's row, in its statement (issue 19).
    const alongside = successTemplate(user.id, {
      signedIn: stage === 'full',
      audit: { event: 'login.success', entry: { userPk: user.id, ip: attempt.ip, detail: { stage } } },
    });
    return { kind: 'session', user, stage, url, alongside };
  }

  /** A new e-mailed code (sign-in and resend): the mail is committed with the code. Returns the masked address. */
  async sendCode(user: UserRow, context: { cobrand: string; locale: string }): Promise<string> {
    await this.db.transaction(async (tx) => {
      const code = await issueOtpCode(tx, this.secrets, user.id);
      await enqueueMail(
        tx,
        await this.composeMail('otp', user, context, [code, String(LIMITS.otpExpiryMinutes)], tx),
      );
    });
    this.onMail();
    return maskEmail(user.email);
  }

  /** The e-mailed code, in an `otp` session. A wrong code sends the user back to the OTP screen with `error`. */
  async otpLogin(session: SessionRow, code: string, ip: string): Promise<LoginOutcome> {
    const links = { cobrandHost: session.cobrand, locale: session.locale };
    const user = await findUserByPk(this.db, session.userPk);
    if (!user) return { kind: 'failed' };
    const { result, evaluated } = await guardedAttempt(
      this.db,
      user.id,
      () => consumeOtpCode(this.db, this.secrets, user.id, code.trim()),
      async () => {},
    );
    if (result === 'locked') {
      await audit(this.db, 'login.locked', { userPk: user.id, ip, detail: { factor: 'otp', evaluated } });
      return { kind: 'redirect', url: portalUrl('locked', links), endSession: true };
    }
    if (result === 'failed') {
      await audit(this.db, 'login.failure', { userPk: user.id, ip, detail: { factor: 'otp', evaluated } });
      return {
        kind: 'redirect',
        url: portalUrl('otp', { ...links, delivery: maskEmail(user.email), error: 'true' }),
      };
    }
    const stage = this.passwordStage(user);
    if (stage === 'full') await markSignedIn(this.db, user.id);
    await audit(this.db, 'login.success', { userPk: user.id, ip, detail: { stage, factor: 'otp' } });
    return { kind: 'session', user, stage, url: stage === 'full' ? APP_BASE : portalUrl(stage, links) };
  }

  /** A next tokencode under the lockout guard, for a session of the new-PIN or next-token stage. */
  private async tokencodeAttempt(session: SessionRow, code: string, ip: string, factor: string) {
    const token = await findToken(this.db, session.userPk);
    const { result, evaluated } = await guardedAttempt(
      this.db,
      session.userPk,
      async () => (token ? checkTokencode(this.db, this.secrets, token, code.trim()) : false),
      async () => {},
    );
    if (result !== 'ok') {
      await audit(this.db, result === 'locked' ? 'login.locked' : 'login.failure', {
        userPk: session.userPk,
        ip,
        detail: { factor, evaluated },
      });
    }
    return result;
  }

  /** The next tokencode alone, in the new-PIN stage: unlocks posting the new PIN. */
  async newPinPasscode(session: SessionRow, code: string, ip: string): Promise<LoginOutcome> {
    const links = { cobrandHost: session.cobrand, locale: session.locale };
    const result = await this.tokencodeAttempt(session, code, ip, 'new-pin-passcode');
    if (result === 'locked') return { kind: 'redirect', url: portalUrl('locked', links), endSession: true };
    if (result === 'failed') return { kind: 'failed' };
    const user = await findUserByPk(this.db, session.userPk);
    if (!user) return { kind: 'failed' };
    return {
      kind: 'session',
      user,
      stage: 'new-pin',
      url: portalUrl('new-pin', links),
      data: { passcodeVerified: true },
    };
  }

  /** The next tokencode in the next-token stage: completes the sign-in, or answers the screen with ec=14008. */
  async nextTokenLogin(session: SessionRow, code: string, ip: string): Promise<LoginOutcome> {
    const links = { cobrandHost: session.cobrand, locale: session.locale };
    const result = await this.tokencodeAttempt(session, code, ip, 'next-token');
    if (result === 'locked') return { kind: 'redirect', url: portalUrl('locked', links), endSession: true };
    if (result === 'failed')
      return { kind: 'redirect', url: portalUrl('next-token', { ...links, ec: '14008' }) };
    await leaveNextTokenMode(this.db, session.userPk);
    const user = await findUserByPk(this.db, session.userPk);
    if (!user) return { kind: 'failed' };
    await markSignedIn(this.db, user.id);
    await audit(this.db, 'login.success', {
      userPk: user.id,
      ip,
      detail: { stage: 'full', factor: 'next-token' },
    });
    return { kind: 'session', user, stage: 'full', url: APP_BASE };
  }

  private passwordStage(user: UserRow): SessionStage {
    const expired = user.passwordExpiresAt !== null && user.passwordExpiresAt.getTime() <= Date.now();
    if (expired || user.passwordTemporary || user.firstLogin) return 'change-password';
    return 'full';
  }

  private async verifyPinAndTokencode(
    token: Awaited<ReturnType<typeof findToken>>,
    passcode: string,
  ): Promise<boolean> {
    if (!token || !/^\d{12}$/.test(passcode)) {
      await verifyDummy(passcode);
      return false;
    }
    const pinOk = await verifyTokenPin(token, passcode.slice(0, 4));
    // The tokencode is only consumed when the PIN is right, so a wrong PIN cannot burn codes.
    return pinOk && (await checkTokencode(this.db, this.secrets, token, passcode.slice(4)));
  }
}
