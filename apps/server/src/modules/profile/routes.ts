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
  resolveLocale,
  SECURITY_QUESTION_IDS,
  type SoftTokenEnrolment,
  SUPPORTED_LOCALES,
  softTokenBodySchema,
  softTokenEnrolmentSchema,
  twoFactorBodySchema,
} from '@cardportal/domain';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { securityAnswers, sessions, users } from '../../db/schema.ts';
import { appHandler } from '../../http/app-handler.ts';
import type { Caller } from '../../http/caller.ts';
import { sendError } from '../../http/errors.ts';
import { type AdminAuditEvent, audit, auditAdmin } from '../../kernel/audit.ts';
import { hashSecret, verifySecret } from '../../security/hashing.ts';
import { isFeatureOn } from '../issuers/index.ts';
import { membershipOf } from '../multi-user/index.ts';
import { assignToken, DEFAULT_PIN_DAYS, findToken } from '../token/index.ts';
import { guardedAttempt } from '../users/index.ts';

/**
 * My Profile (issue 7): the signed-in user's own language, challenge question, two-factor setting and
 * soft token. Changes that could hand the account to someone at an unattended screen ask for the
 * current password again, counted toward the lock like a sign-in guess (6 wrong: locked, signed out).
 */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const handle = appHandler(app);

  /**
   * The current password again, under the lockout guard. False: answered (403 wrong password, or the
   * locked answer with the session ended).
   */
  const reauthenticate = async (
    caller: Caller,
    password: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<boolean> => {
    const { result, evaluated } = await guardedAttempt(
      app.db,
      caller.pk,
      () => verifySecret(caller.row.passwordHash, password),
      async () => {},
    );
    if (result === 'ok') return true;
    await audit(app.db, result === 'locked' ? 'login.locked' : 'login.failure', {
      userPk: caller.pk,
      ip: request.ip,
      detail: { factor: 'profile-password', evaluated },
    });
    if (result === 'locked') {
      await app.sessions.end(request, reply);
      await sendError(reply, 401, 'account.locked', 'user account locked');
    } else {
      await sendError(reply, 403, 'currentPassword.wrong', 'Wrong Password.', {
        currentPassword: 'currentPassword.wrong',
      });
    }
    return false;
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
      subjectPk: caller.pk,
      changes,
      ip,
    });

  const profileOf = async (caller: Caller): Promise<Profile> => {
    const [answer] = await app.db.select().from(securityAnswers).where(eq(securityAnswers.userPk, caller.pk));
    const token = await findToken(app.db, caller.pk);
    const cobrand = await app.cobrands.get(caller.row.cobrand);
    const locales = (cobrand?.cobrand.locales ?? []).filter(isSupportedLocale);
    const loginType = caller.row.loginType as LoginType;
    return {
      userId: caller.userId,
      firstName: caller.row.firstName,
      lastName: caller.row.lastName,
      email: caller.row.email,
      locale: caller.row.locale,
      locales: locales.length > 0 ? locales : [...SUPPORTED_LOCALES],
      loginType,
      twoFactor: loginType === 'otp-2fa',
      securityQuestionId: answer?.questionId ?? null,
      securityQuestionIds: [...SECURITY_QUESTION_IDS],
      token: token ? { mode: token.mode } : null,
      changePasswordUrl: portalUrl('change-password', { dest: 'MyProfile', cobrandHost: caller.row.cobrand }),
    };
  };

  app.get(
    '/app/api/profile',
    handle(({ caller }) => profileOf(caller), { response: profileSchema }),
  );

  /** Preferred language: one of the co-brand's; the session (and so the next page) follows. */
  app.put(
    '/app/api/profile/language',
    handle(
      async ({ caller, request, reply, body }) => {
        const profile = await profileOf(caller);
        if (!isSupportedLocale(body.locale) || !profile.locales.includes(body.locale)) {
          return sendError(reply, 400, 'locale.invalid', 'Not a language of this site', {
            locale: 'locale.invalid',
          });
        }
        if (body.locale !== caller.row.locale) {
          await app.db
            .update(users)
            .set({ locale: body.locale, updatedAt: new Date() })
            .where(eq(users.id, caller.pk));
          await app.db.execute(
            sql`update ${sessions} set locale = ${body.locale} where user_pk = ${caller.pk}`,
          );
          await record(
            caller,
            'profile.updated',
            { locale: { before: caller.row.locale, after: body.locale } },
            request.ip,
          );
        }
        return { ...profile, locale: body.locale };
      },
      { body: languageBodySchema, response: profileSchema },
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
          return sendError(
            reply,
            400,
            'form.invalid',
            'The challenge question has invalid fields',
            fieldErrors,
          );
        }
        if (!(await reauthenticate(caller, body.currentPassword, request, reply))) return reply;
        const answerHash = await hashSecret(normaliseAnswer(body.answer));
        const [before] = await app.db
          .select()
          .from(securityAnswers)
          .where(eq(securityAnswers.userPk, caller.pk));
        await app.db
          .insert(securityAnswers)
          .values({ userPk: caller.pk, questionId: body.questionId, answerHash })
          .onConflictDoUpdate({
            target: securityAnswers.userPk,
            set: { questionId: body.questionId, answerHash, updatedAt: new Date() },
          });
        // The question is recorded, never the answer.
        await record(
          caller,
          'profile.updated',
          { securityQuestion: { before: before?.questionId ?? null, after: body.questionId } },
          request.ip,
        );
        return profileOf(caller);
      },
      { body: challengeQuestionBodySchema, response: profileSchema },
    ),
  );

  /** Two-factor (e-mailed one-time code) on or off for this user (seed 001 §4). Token users keep their token. */
  app.put(
    '/app/api/profile/two-factor',
    handle(
      async ({ caller, request, reply, body }) => {
        if (caller.row.loginType === 'token' || caller.row.sso) {
          return sendError(
            reply,
            409,
            'twoFactor.notAvailable',
            'Two-factor sign-in is set by your token or single sign-on',
          );
        }
        // "Two-factor users cannot be multi-users" (seed 001 §6): a linked member keeps password sign-in,
        // as a two-factor user is never linked (checkLinkCandidate). Turning it off stays allowed.
        if (body.enabled && caller.row.loginType !== 'otp-2fa' && (await membershipOf(app.db, caller.pk))) {
          return sendError(
            reply,
            409,
            'multiUser.twoFactor',
            app.texts.text(resolveLocale(caller.locale), 'Messages', 'validation.multiUser.twoFactor') ||
              'Two-factor users cannot be multi-users.',
          );
        }
        // The company's program option gates turning it on; users above company level are not gated.
        if (
          body.enabled &&
          caller.row.loginType !== 'otp-2fa' &&
          caller.companyId != null &&
          !(await isFeatureOn(app.db, caller.companyId, 'twoFactor'))
        ) {
          return sendError(
            reply,
            403,
            'programOption.disabled',
            'Two-factor sign-in is not offered for your company (program option)',
          );
        }
        if (!(await reauthenticate(caller, body.currentPassword, request, reply))) return reply;
        const loginType = body.enabled ? 'otp-2fa' : 'pwd';
        if (loginType !== caller.row.loginType) {
          await app.db.update(users).set({ loginType, updatedAt: new Date() }).where(eq(users.id, caller.pk));
          await record(
            caller,
            'profile.updated',
            { loginType: { before: caller.row.loginType, after: loginType } },
            request.ip,
          );
          caller.row.loginType = loginType;
        }
        return profileOf(caller);
      },
      { body: twoFactorBodySchema, response: profileSchema },
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
        if (caller.row.loginType !== 'token') {
          return sendError(
            reply,
            409,
            'softToken.notTokenUser',
            'Your sign-in does not use a software token',
          );
        }
        if (!(await reauthenticate(caller, body.currentPassword, request, reply))) return reply;
        const issued = await assignToken(app.db, app.secrets, {
          id: caller.pk,
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
          qrSvg: await QRCode.toString(issued.uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
          defaultPin: issued.defaultPin,
          defaultPinDays: DEFAULT_PIN_DAYS,
        };
        return enrolment;
      },
      { body: softTokenBodySchema, response: softTokenEnrolmentSchema },
    ),
  );
}
