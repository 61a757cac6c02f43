import {
  CHANGE_PASSWORD_REFUSALS,
  changePasswordBodySchema,
  emptyObjectSchema,
  FORGOT_PASSWORD_REFUSALS,
  firstRefusal,
  forgotPasswordBodySchema,
  LIMITS,
  okSchema,
  resolveLocale,
  securityQuestionBodySchema,
  securityQuestionSchema,
  serviceErrorSchema,
} from '@cardportal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { sendServiceError } from '../../http/errors.ts';
import { answerNoSoonerThan, LOOKUP_FLOOR_MS, SECRET_FLOOR_MS } from '../../http/timing.ts';
import { limitUser } from '../../http/user-limit.ts';
import { composeMail } from '../mail/index.ts';
import { PasswordService } from './service.ts';

type SessionRow = NonNullable<Awaited<ReturnType<FastifyInstance['sessions']['get']>>>;

/**
 * A call's refusals of its fields, by refusal key (the schema's issue messages, packages/domain
 * api/portal.ts): the code and sentence it answers, the first in the call's own order.
 */
const refusals =
  <K extends string>(order: readonly K[], answers: Record<K, [code: string, message: string]>) =>
  (error: z.ZodError, _request: FastifyRequest, reply: FastifyReply) => {
    const [code, message] = answers[firstRefusal(error.issues, order) ?? (order[0] as K)];
    return sendServiceError(reply, 400, code, message);
  };

/** Forgot password and change password (spec §7; DESIGN §5). */
export async function passwordRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const service = new PasswordService(app.db, app.secrets, (kind, user, context, args) =>
    composeMail(app, kind, user, context, args),
  );
  const limit = { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } };
  // Calls that name a user ID answer no sooner than the floor, known or unknown (http/timing.ts).
  const floored = {
    ...limit,
    onSend: async (_request: unknown, reply: FastifyReply) => answerNoSoonerThan(reply, LOOKUP_FLOOR_MS),
  };

  /** The answers of a credential service: its value, and its refusals. */
  const answers = <T extends z.ZodType>(ok: T) => ({
    200: ok,
    '4xx': serviceErrorSchema,
  });

  app.post(
    '/cpae/public/users/securityquestions',
    {
      ...floored,
      schema: {
        querystring: emptyObjectSchema,
        body: securityQuestionBodySchema,
        response: answers(securityQuestionSchema),
      },
      config: {
        ...limit.config,
        invalid: refusals(['userId.required', 'userId.tooLong'], {
          'userId.required': ['userId.required', 'userId is required'],
          'userId.tooLong': ['userId.tooLong', 'userId is too long'],
        }),
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { userId } = request.body;
      if (!(await limitUser(app, reply, userId))) return reply;
      const locale = resolveLocale(request.body.locale ?? request.cookies.user_locale);
      const questionId = await service.question(userId);
      return {
        questionId,
        questionText: app.texts.text(locale, 'Messages', `securityQuestion.${questionId}`),
      };
    },
  );

  const secretFloored = {
    ...limit,
    onSend: async (_request: unknown, reply: FastifyReply) => answerNoSoonerThan(reply, SECRET_FLOOR_MS),
  };

  app.post(
    '/services/authentication-service/public/forgotPassword',
    {
      ...secretFloored,
      schema: { querystring: emptyObjectSchema, body: forgotPasswordBodySchema, response: answers(okSchema) },
      config: {
        ...limit.config,
        invalid: refusals(FORGOT_PASSWORD_REFUSALS, {
          'userId.required': ['userId.required', 'userId is required'],
          'question.required': ['question.required', 'securityQuestion.questionId is required'],
          'answer.required': ['answer.required', 'securityQuestion.questionResponse is required'],
          'request.tooLong': ['request.tooLong', 'A field is too long'],
        }),
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { userId, securityQuestion, locale, cobrandName } = request.body;
      if (!(await limitUser(app, reply, userId))) return reply;
      try {
        await service.forgotPassword({
          userId,
          questionId: securityQuestion.questionId,
          answer: securityQuestion.questionResponse,
          locale: resolveLocale(locale ?? request.cookies.user_locale),
          cobrand: cobrandName,
          ip: request.ip,
        });
      } catch (error) {
        if (error instanceof AppError)
          return sendServiceError(reply, error.status, error.code, error.message);
        throw error;
      }
      app.mailWorker.kick();
      return { ok: true as const };
    },
  );

  /** The session of a change-password call, found before its body is looked at. */
  const changeSessions = new WeakMap<FastifyRequest, SessionRow>();

  app.post(
    '/services/authentication-service/public/changePassword',
    {
      ...floored,
      schema: { querystring: emptyObjectSchema, body: changePasswordBodySchema, response: answers(okSchema) },
      config: {
        ...limit.config,
        signedIn: true,
        invalid: refusals(CHANGE_PASSWORD_REFUSALS, {
          'userId.required': ['userId.required', 'userId is required'],
          'oldCredential.required': ['invalid.credentials', 'current password is required'],
          'newCredential.required': ['password.policy', 'new password is required'],
          'newCredential.tooLong': [
            'password.policy',
            `new password is longer than ${LIMITS.passwordMaxLength} characters`,
          ],
        }),
      },
      // The session first: without one of these stages, 401/403 whatever the body.
      preValidation: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const session = await app.sessions.require(request, reply, ['change-password', 'full']);
        if (!session) return reply;
        changeSessions.set(request, session);
      },
    },
    async (request, reply) => {
      const session = changeSessions.get(request) as SessionRow;
      const { userId, oldCredential, newCredential } = request.body;
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
        if (error instanceof AppError) {
          if (error.code === 'user.locked') await app.sessions.end(request, reply);
          return sendServiceError(reply, error.status, error.code, error.message, error.extra);
        }
        throw error;
      }
      app.mailWorker.kick();
      return { ok: true as const };
    },
  );
}
