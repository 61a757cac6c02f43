import {
  challengeQuestionBodySchema,
  checkSecurityAnswer,
  isSupportedLocale,
  type LoginType,
  languageBodySchema,
  normaliseAnswer,
  type Profile,
  portalUrl,
  profileSchema,
  SECURITY_QUESTION_IDS,
  type SoftTokenEnrolment,
  SUPPORTED_LOCALES,
  softTokenBodySchema,
  softTokenEnrolmentSchema,
  twoFactorBodySchema,
} from '@cardportal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, audit, auditAdmin } from '../../kernel/audit.ts';
import { lazy } from '../../kernel/lazy.ts';
import { hashSecret, verifyDummy, verifySecret } from '../../security/hashing.ts';
import { isFeatureOn } from '../issuers/index.ts';
import { membershipOf } from '../multi-user/index.ts';
import { assignToken, DEFAULT_PIN_DAYS, findToken } from '../token/index.ts';
import {
  findUserByPk,
  guardedAttempt,
  saveSecurityAnswer,
  securityAnswerOf,
  updateOwnSettings,
} from '../users/index.ts';

/** qrcode, at the first token enrolment (kernel/lazy.ts). */
const qrCode = lazy(async () => (await import('qrcode')).default);

/**
 * My Profile (issue 7): the signed-in user's own language, challenge question, two-factor setting and
 * soft token. Changes that could hand the account to someone at an unattended screen ask for the
 * current password again, counted toward the lock like a sign-in guess (6 wrong: locked, signed out).
 */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const handle = appHandler(app);

  /**
   * The current password again, under the lockout guard: refused with 403 when wrong, and with 401 (the
   * session ended) when that locked the account.
   */
  const reauthenticate = async (
    caller: Caller,
    password: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> => {
    // The hash is read here, not carried by the caller (it never travels with a request's state).
    const stored = await findUserByPk(app.db, caller.userPk);
    const { result, evaluated } = await guardedAttempt(
      app.db,
      caller.userPk,
      () => (stored ? verifySecret(stored.passwordHash, password) : verifyDummy('x')),
      async () => {},
    );
    if (result === 'ok') return;
    await audit(app.db, result === 'locked' ? 'login.locked' : 'login.failure', {
      userPk: caller.userPk,
      ip: request.ip,
      detail: { factor: 'profile-password', evaluated },
    });
    if (result === 'locked') {
      await app.sessions.end(request, reply);
      throw new AppError('unauthenticated', 'account.locked', { message: 'user account locked' });
    }
    throw new AppError('forbidden', 'currentPassword.wrong', {
      message: 'Wrong Password.',
      fieldErrors: { currentPassword: 'currentPassword.wrong' },
    });
  };

  const record = (
    caller: Caller,
    event: AdminAuditEvent,
    changes: Record<string, { before: unknown; after: unknown }>,
    ip: string,
  ) =>
    auditAdmin(app.db, event, {
      actor: caller,
      entity: 'user',
      entityId: caller.userId,
      subjectPk: caller.userPk,
      changes,
      ip,
    });

  const profileOf = async (caller: Caller): Promise<Profile> => {
    const answer = await securityAnswerOf(app.db, caller.userPk);
    const token = await findToken(app.db, caller.userPk);
    const cobrand = await app.cobrands.get(caller.cobrand);
    const locales = (cobrand?.cobrand.locales ?? []).filter(isSupportedLocale);
    const loginType = caller.profile.loginType as LoginType;
    return {
      userId: caller.userId,
      firstName: caller.profile.firstName,
      lastName: caller.profile.lastName,
      email: caller.profile.email,
      locale: caller.profile.locale,
      locales: locales.length > 0 ? locales : [...SUPPORTED_LOCALES],
      loginType,
      twoFactor: loginType === 'otp-2fa',
      securityQuestionId: answer?.questionId ?? null,
      securityQuestionIds: [...SECURITY_QUESTION_IDS],
      token: token ? { mode: token.mode } : null,
      changePasswordUrl: portalUrl('change-password', { dest: 'MyProfile', cobrandHost: caller.cobrand }),
    };
  };

  app.get(
    '/app/api/profile',
    handle(({ caller }) => profileOf(caller), { permission: 'signedIn', response: profileSchema }),
  );

  /** Preferred language: one of the co-brand's; the session (and so the next page) follows. */
  app.put(
    '/app/api/profile/language',
    handle(
      async ({ caller, request, body }) => {
        const profile = await profileOf(caller);
        if (!isSupportedLocale(body.locale) || !profile.locales.includes(body.locale)) {
          throw new AppError('invalid', 'locale.invalid', {
            message: 'Not a language of this site',
            fieldErrors: {
              locale: 'locale.invalid',
            },
          });
        }
        if (body.locale !== caller.profile.locale) {
          await updateOwnSettings(app.db, caller.userPk, { locale: body.locale });
          await record(
            caller,
            'profile.updated',
            { locale: { before: caller.profile.locale, after: body.locale } },
            request.ip,
          );
        }
        return { ...profile, locale: body.locale };
      },
      { permission: 'signedIn', body: languageBodySchema, response: profileSchema },
    ),
  );

  /** Maintain Challenge Questions: a question of the catalogue and its answer (seed 001 §5 rules). */
  app.put(
    '/app/api/profile/challenge-question',
    handle(
      async ({ caller, request, reply, body }) => {
        const fieldErrors: Record<string, string> = {};
        if (!(SECURITY_QUESTION_IDS as readonly string[]).includes(body.questionId)) {
          fieldErrors.questionId = 'securityQuestion.required';
        }
        const [answerProblem] = checkSecurityAnswer(body.answer);
        if (answerProblem) fieldErrors.answer = answerProblem;
        if (Object.keys(fieldErrors).length > 0) {
          throw new AppError('invalid', 'form.invalid', {
            message: 'The challenge question has invalid fields',
            fieldErrors: fieldErrors,
          });
        }
        await reauthenticate(caller, body.currentPassword, request, reply);
        const answerHash = await hashSecret(normaliseAnswer(body.answer));
        const before = await securityAnswerOf(app.db, caller.userPk);
        await saveSecurityAnswer(app.db, caller.userPk, { questionId: body.questionId, answerHash });
        // The question is recorded, never the answer.
        await record(
          caller,
          'profile.updated',
          { securityQuestion: { before: before?.questionId ?? null, after: body.questionId } },
          request.ip,
        );
        return profileOf(caller);
      },
      { permission: 'signedIn', body: challengeQuestionBodySchema, response: profileSchema },
    ),
  );

  /** Two-factor (e-mailed one-time code) on or off for this user (seed 001 §4). Token users keep their token. */
  app.put(
    '/app/api/profile/two-factor',
    handle(
      async ({ caller, request, reply, body }) => {
        if (caller.profile.loginType === 'token' || caller.profile.sso) {
          throw new AppError('conflict', 'twoFactor.notAvailable', {
            message: 'Two-factor sign-in is set by your token or single sign-on',
          });
        }
        // "Two-factor users cannot be multi-users" (seed 001 §6): a linked member keeps password sign-in,
        // as a two-factor user is never linked (checkLinkCandidate). Turning it off stays allowed.
        if (
          body.enabled &&
          caller.profile.loginType !== 'otp-2fa' &&
          (await membershipOf(app.db, caller.userPk))
        ) {
          throw new AppError('conflict', 'multiUser.twoFactor', {
            message: 'Two-factor users cannot be multi-users.',
          });
        }
        // The company's program option gates turning it on; users above company level are not gated.
        if (
          body.enabled &&
          caller.profile.loginType !== 'otp-2fa' &&
          caller.companyId != null &&
          !(await isFeatureOn(app.db, caller.companyId, 'twoFactor'))
        ) {
          throw new AppError('forbidden', 'programOption.disabled', {
            message: 'Two-factor sign-in is not offered for your company (program option)',
          });
        }
        await reauthenticate(caller, body.currentPassword, request, reply);
        const loginType = body.enabled ? 'otp-2fa' : 'pwd';
        if (loginType !== caller.profile.loginType) {
          await updateOwnSettings(app.db, caller.userPk, { loginType });
          await record(
            caller,
            'profile.updated',
            { loginType: { before: caller.profile.loginType, after: loginType } },
            request.ip,
          );
          caller.profile.loginType = loginType;
        }
        return profileOf(caller);
      },
      { permission: 'signedIn', body: twoFactorBodySchema, response: profileSchema },
    ),
  );

  /**
   * Soft-token download: a new token for a token user (the old one stops working), answered once as
   * the otpauth URI, its QR code and a default PIN; the next sign-in sets a PIN of the user's own.
   */
  app.post(
    '/app/api/profile/soft-token',
    handle(
      async ({ caller, request, reply, body }) => {
        if (caller.profile.loginType !== 'token') {
          throw new AppError('conflict', 'softToken.notTokenUser', {
            message: 'Your sign-in does not use a software token',
          });
        }
        await reauthenticate(caller, body.currentPassword, request, reply);
        const issued = await assignToken(app.db, app.secrets, {
          id: caller.userPk,
          displayUserId: caller.userId,
        });
        await record(
          caller,
          'profile.softToken',
          { token: { before: 'replaced', after: 'new-pin' } },
          request.ip,
        );
        const enrolment: SoftTokenEnrolment = {
          uri: issued.uri,
          qrSvg: await (await qrCode()).toString(issued.uri, {
            type: 'svg',
            errorCorrectionLevel: 'M',
            margin: 2,
          }),
          defaultPin: issued.defaultPin,
          defaultPinDays: DEFAULT_PIN_DAYS,
        };
        return enrolment;
      },
      { permission: 'signedIn', body: softTokenBodySchema, response: softTokenEnrolmentSchema },
    ),
  );
}
