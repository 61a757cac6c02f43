import {
  APP_BASE,
  canonicalUserId,
  LIMITS,
  type LoginDescriptor,
  type LoginType,
  portalUrl,
  type SessionStage,
} from '@cardportal/domain';
import type { Db } from '../../db/client.ts';
import { keyedHash } from '../../security/crypto.ts';
import { verifyDummy, verifySecret } from '../../security/hashing.ts';
import { audit } from '../../shared/audit.ts';
import type { Secrets } from '../../shared/secrets.ts';
import { findUserByUserId, type UserRow } from '../../shared/users.ts';
import { lockIfExhausted, recordSuccess, recordUnknownFailure, reserveAttempt } from './repository.ts';

export interface LoginAttempt {
  username: string;
  password: string;
  ip: string;
  cobrandHost: string | undefined;
  locale: string;
}

export type LoginOutcome =
  | { kind: 'failed' }
  | { kind: 'locked'; url: string }
  | { kind: 'session'; user: UserRow; stage: SessionStage; url: string };

/** Temporary passwords (forgot-password) expire after 24 hours (DESIGN §5). */
const TEMPORARY_PASSWORD_MS = 24 * 60 * 60 * 1000;

/**
 * Password sign-in (DESIGN §5). Known and unknown user IDs take the same path: one argon2id
 * verification, one counter update, one audit row, and the same answers.
 */
export class LoginService {
  constructor(
    private readonly db: Db,
    private readonly secrets: Secrets,
  ) {}

  descriptor(rawUserId: string, user: UserRow | undefined): LoginDescriptor {
    if (user) return { ldapId: user.ldapId, loginType: user.loginType as LoginType, b2BAlias: user.b2bAlias };
    // A stable decoy of the same shape, so the call does not reveal whether the user exists.
    const canonical = canonicalUserId(rawUserId);
    const mac = keyedHash(this.secrets.hmac, 'decoy-ldap', canonical);
    const ldapId = `ldap-${Buffer.from(mac, 'hex').toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 16)}`;
    return { ldapId, loginType: 'pwd', b2BAlias: `b2b-${canonical}` };
  }

  async findDescriptor(rawUserId: string): Promise<LoginDescriptor> {
    return this.descriptor(rawUserId, await findUserByUserId(this.db, rawUserId));
  }

  async passwordLogin(attempt: LoginAttempt): Promise<LoginOutcome> {
    const userId = attempt.username.trim();
    const { password } = attempt;
    const links = { cobrandHost: attempt.cobrandHost, locale: attempt.locale };
    const lockedUrl = portalUrl('locked', links);
    if (!userId || userId.length > LIMITS.userIdMaxLength) {
      await verifyDummy(password.slice(0, LIMITS.credentialMaxLength));
      return { kind: 'failed' };
    }
    const user = await findUserByUserId(this.db, userId);
    if (!user) {
      await verifyDummy(password.slice(0, LIMITS.credentialMaxLength));
      const failures = await recordUnknownFailure(
        this.db,
        keyedHash(this.secrets.hmac, 'unknown-user', canonicalUserId(userId)),
      );
      await audit(this.db, failures >= LIMITS.maxFailedAttempts ? 'login.locked' : 'login.failure', {
        ip: attempt.ip,
        detail: { known: false },
      });
      return failures >= LIMITS.maxFailedAttempts ? { kind: 'locked', url: lockedUrl } : { kind: 'failed' };
    }

    const attemptNo = await reserveAttempt(this.db, user.id);
    if (attemptNo === undefined) {
      await verifyDummy(password.slice(0, LIMITS.credentialMaxLength));
      const locked = user.status !== 'Inactive';
      await audit(this.db, locked ? 'login.locked' : 'login.refused', {
        userPk: user.id,
        ip: attempt.ip,
        detail: { status: user.status },
      });
      return locked ? { kind: 'locked', url: lockedUrl } : { kind: 'failed' };
    }

    const ok =
      password.length > 0 && password.length <= LIMITS.credentialMaxLength
        ? await this.verifyCredential(user, password)
        : await verifyDummy(password.slice(0, LIMITS.credentialMaxLength));

    if (!ok) {
      const locked = attemptNo >= LIMITS.maxFailedAttempts && (await lockIfExhausted(this.db, user.id));
      await audit(this.db, locked ? 'user.locked' : 'login.failure', {
        userPk: user.id,
        ip: attempt.ip,
        detail: { attempt: attemptNo },
      });
      return attemptNo >= LIMITS.maxFailedAttempts ? { kind: 'locked', url: lockedUrl } : { kind: 'failed' };
    }

    if (user.passwordTemporary && Date.now() - user.passwordChangedAt.getTime() > TEMPORARY_PASSWORD_MS) {
      // "temporary password expired, contact administrator": a right password that no longer opens.
      await audit(this.db, 'login.refused', { userPk: user.id, ip: attempt.ip, detail: { reason: 'temporary-expired' } });
      return { kind: 'failed' };
    }

    await recordSuccess(this.db, user.id);
    const stage = this.stageAfterPassword(user);
    await audit(this.db, 'login.success', { userPk: user.id, ip: attempt.ip, detail: { stage } });
    const url = stage === 'full' ? APP_BASE : portalUrl(stage, links);
    return { kind: 'session', user, stage, url };
  }

  private stageAfterPassword(user: UserRow): SessionStage {
    const expired = user.passwordExpiresAt !== null && user.passwordExpiresAt.getTime() <= Date.now();
    if (expired || user.passwordTemporary || user.firstLogin) return 'change-password';
    return 'full';
  }

  private verifyCredential(user: UserRow, password: string): Promise<boolean> {
    return verifySecret(user.passwordHash, password);
  }
}
