import { cobrandNameSchema, LIMITS, resolveLocale } from '@cardportal/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendServiceError } from '../../http/errors.ts';
import { answerNoSoonerThan, LOOKUP_FLOOR_MS, SECRET_FLOOR_MS } from '../../http/timing.ts';
import { limitUser } from '../../http/user-limit.ts';
import { composeMail } from '../../shared/mail-text.ts';
import { PasswordError, PasswordService } from './service.ts';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Forgot password and change password (spec §7; DESIGN §5). */
export async function passwordRoutes(app: FastifyInstance): Promise<void> {
  const service = new PasswordService(app.db, app.secrets, (kind, user, context, args) =>
    composeMail(app, kind, user, context, args),
  );
  const limit = { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } };
  // Calls that name a user ID answer no sooner than the floor, known or unknown (http/timing.ts).
  const floored = {
    ...limit,
    onSend: async (_request: unknown, reply: FastifyReply) => answerNoSoonerThan(reply, LOOKUP_FLOOR_MS),
  };

  app.post('/cpae/public/users/securityquestions', floored, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const body = obj(request.body);
    const userId = str(body.userId)?.trim() ?? '';
    if (!userId) return sendServiceError(reply, 400, 'userId.required', 'userId is required');
    if (userId.length > LIMITS.userIdMaxLength)
      return sendServiceError(reply, 400, 'userId.tooLong', 'userId is too long');
    if (!(await limitUser(app, reply, userId))) return reply;
    const locale = resolveLocale(str(body.locale) ?? request.cookies.user_locale);
    const questionId = await service.question(userId);
    return { questionId, questionText: app.texts.text(locale, 'Messages', `securityQuestion.${questionId}`) };
  });

  const secretFloored = {
    ...limit,
    onSend: async (_request: unknown, reply: FastifyReply) => answerNoSoonerThan(reply, SECRET_FLOOR_MS),
  };

  app.post(
    '/services/authentication-service/public/forgotPassword',
    secretFloored,
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const body = obj(request.body);
      const question = obj(body.securityQuestion);
      const userId = str(body.userId)?.trim() ?? '';
      const questionId = str(question.questionId) ?? '';
      const answer = str(question.questionResponse) ?? '';
      if (!userId) return sendServiceError(reply, 400, 'userId.required', 'userId is required');
      if (!questionId)
        return sendServiceError(reply, 400, 'question.required', 'securityQuestion.questionId is required');
      if (answer.trim() === '')
        return sendServiceError(
          reply,
          400,
          'answer.required',
          'securityQuestion.questionResponse is required',
        );
      if (userId.length > LIMITS.userIdMaxLength || answer.length > 1000 || questionId.length > 20) {
        return sendServiceError(reply, 400, 'request.tooLong', 'A field is too long');
      }
      if (!(await limitUser(app, reply, userId))) return reply;
      const cobrand = cobrandNameSchema.safeParse(str(body.cobrandName));
      try {
        await service.forgotPassword({
          userId,
          questionId,
          answer,
          locale: resolveLocale(str(body.locale) ?? request.cookies.user_locale),
          cobrand: cobrand.success ? cobrand.data : undefined,
          ip: request.ip,
        });
      } catch (error) {
        if (error instanceof PasswordError)
          return sendServiceError(reply, error.status, error.code, error.message);
        throw error;
      }
      app.mailWorker.kick();
      return { ok: true };
    },
  );

  app.post('/services/authentication-service/public/changePassword', floored, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const session = await app.sessions.require(request, reply, ['change-password', 'full']);
    if (!session) return reply;
    const body = obj(request.body);
    const userId = str(body.userId)?.trim() ?? '';
    const oldCredential = str(body.oldCredential) ?? '';
    const newCredential = str(body.newCredential) ?? '';
    if (!userId) return sendServiceError(reply, 400, 'userId.required', 'userId is required');
    if (!oldCredential)
      return sendServiceError(reply, 400, 'invalid.credentials', 'current password is required');
    if (!newCredential) return sendServiceError(reply, 400, 'password.policy', 'new password is required');
    if (newCredential.length > LIMITS.credentialMaxLength) {
      return sendServiceError(
        reply,
        400,
        'password.policy',
        `new password is longer than ${LIMITS.passwordMaxLength} characters`,
      );
    }
    if (!(await limitUser(app, reply, userId))) return reply;
    try {
      await service.changePassword(session.userPk, {
        userId,
        oldCredential,
        newCredential,
        ip: request.ip,
        keepSession: session.idHash,
        cobrand: session.cobrand,
        locale: session.locale,
      });
    } catch (error) {
      if (error instanceof PasswordError) {
        if (error.code === 'user.locked') await app.sessions.end(request, reply);
        return sendServiceError(reply, error.status, error.code, error.message, error.detail);
      }
      throw error;
    }
    app.mailWorker.kick();
    return { ok: true };
  });
}
