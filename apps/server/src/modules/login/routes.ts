import {
  apiErrorSchema,
  cobrandNameSchema,
  DEFAULT_COBRAND,
  emptyObjectSchema,
  firstRefusal,
  heraclesLoginFormSchema,
  LIMITS,
  loginDescriptorSchema,
  loginSigninBodySchema,
  resolveLocale,
  textAnswerSchema,
  USER_ID_COOKIE,
  USER_ID_COOKIE_PATH,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerOf } from '../../http/contract.ts';
import { sendError } from '../../http/errors.ts';
import { answerNoSoonerThan, LOOKUP_FLOOR_MS, SECRET_FLOOR_MS } from '../../http/timing.ts';
import { limitUser } from '../../http/user-limit.ts';
import type { LoginService } from './service.ts';

export async function loginRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const service = app.login;

  /** Login descriptor (spec §3): ldapId, loginType, b2BAlias — a stable decoy for unknown IDs. */
  app.post(
    '/sdportal/rest/user/loginSignin',
    {
      schema: {
        querystring: emptyObjectSchema,
        body: loginSigninBodySchema,
        response: {
          200: loginDescriptorSchema,
          '4xx': apiErrorSchema.describe('userId missing (userId.required) or too long (userId.tooLong)'),
        },
      },
      config: {
        rateLimit: { max: 120, timeWindow: '1 minute' },
        invalid: (error, _request, reply) =>
          firstRefusal(error.issues, ['userId.required']) // a missing one before a long one
            ? sendError(reply, 400, 'userId.required', 'userId is required', { userId: 'required' })
            : sendError(
                reply,
                400,
                'userId.tooLong',
                `userId must be at most ${LIMITS.userIdMaxLength} characters`,
              ),
      },
      onSend: async (_request, reply) => answerNoSoonerThan(reply, LOOKUP_FLOOR_MS),
    },
    async (request, reply) => {
      const { userId } = request.body;
      reply.header('cache-control', 'no-store');
      if (!(await limitUser(app, reply, userId))) return reply;
      return service.findDescriptor(userId);
    },
  );

  /**
   * Sign-in (DESIGN §5): answers the URL to go to as text; 401 for a failure; 500 on a system error.
   * `login-form-type` password/token start a sign-in; otp, token (new-PIN stage) and next-token
   * continue the session's stage.
   */
  app.post(
    '/heracles/login',
    {
      schema: {
        querystring: emptyObjectSchema,
        body: heraclesLoginFormSchema,
        consumes: ['application/x-www-form-urlencoded'],
        response: {
          200: answerOf('The same-origin URL to go to (the application, or a portal screen)', 'text/plain'),
          400: {
            description: 'Unsupported login-form-type (text), or a malformed form (JSON)',
            content: {
              'text/plain': { schema: textAnswerSchema },
              'application/json': { schema: apiErrorSchema },
            },
          },
          401: answerOf('Login failed', 'text/plain'),
        },
      },
      config: {
        rateLimit: { max: 60, timeWindow: '1 minute' },
        invalid: (_error, _request, reply) =>
          reply
            .code(400)
            .header('cache-control', 'no-store')
            .type('text/plain; charset=utf-8')
            .send('Unsupported login-form-type'),
      },
      onSend: async (_request, reply) => answerNoSoonerThan(reply, SECRET_FLOOR_MS),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      const body = request.body;
      const formType = body['login-form-type'] || 'password';
      const password = body.password ?? '';
      // The session a later stage continues; a first factor (password, or a token's first passcode)
      // starts a new one whatever the request holds, so it does not look it up (issue 19).
      const current =
        formType === 'otp' || formType === 'next-token' || formType === 'token'
          ? await app.sessions.get(request)
          : null;

      let outcome: Awaited<ReturnType<LoginService['primaryLogin']>>;
      if (
        formType === 'otp' ||
        formType === 'next-token' ||
        (formType === 'token' && current?.stage === 'new-pin')
      ) {
        const stage = formType === 'token' ? 'new-pin' : formType;
        if (!current || current.stage !== stage) return reply.code(401).send('Login failed');
        outcome =
          stage === 'otp'
            ? await service.otpLogin(current, password, request.ip)
            : stage === 'next-token'
              ? await service.nextTokenLogin(current, password, request.ip)
              : await service.newPinPasscode(current, password, request.ip);
        if (outcome.kind === 'session') {
          if (outcome.stage === current.stage && outcome.data) {
            await app.sessions.setData(current, outcome.data);
          } else {
            await app.sessions.start(request, reply, {
              userPk: current.userPk,
              stage: outcome.stage,
              cobrand: current.cobrand,
              locale: current.locale,
              sso: current.sso,
              data: outcome.data,
            });
          }
          return reply.code(200).send(outcome.url);
        }
      } else {
        const username = (body.username ?? '').trim();
        if (username && !(await limitUser(app, reply, username))) return reply;
        const cobrand = cobrandNameSchema.safeParse(body.cobrandHost ?? '');
        const cobrandRecord = cobrand.success ? await app.cobrands.get(cobrand.data) : null;
        const cobrandHost = cobrandRecord ? cobrandRecord.cobrand.name : undefined;
        const fallback = cobrandRecord ?? (await app.cobrands.get(DEFAULT_COBRAND));
        const locale = resolveLocale(body.locale || request.cookies.user_locale, fallback?.cobrand.locales);
        outcome = await service.primaryLogin({
          username: body.username ?? '',
          password,
          ip: request.ip,
          cobrandHost,
          locale,
        });
        if (outcome.kind === 'session') {
          await app.sessions.start(
            request,
            reply,
            {
              userPk: outcome.user.id,
              stage: outcome.stage,
              cobrand: cobrandHost ?? outcome.user.cobrand,
              locale,
              sso: outcome.user.sso,
            },
            outcome.alongside,
          );
          reply.setCookie('ssoUserCookie', String(outcome.user.sso), {
            path: '/',
            sameSite: 'lax',
            secure: app.config.secure,
            maxAge: LIMITS.cookieDays * 86_400,
          });
          // Spec §3 user_id: the ID just proven by its password, remembered for this browser's sign-in
          // form (docs/security.md: why it tells an attacker nothing). Read by the portal's script
          // (not HttpOnly), sent to the portal's pages only, never on a cross-site request.
          reply.setCookie(USER_ID_COOKIE, outcome.user.userId, {
            path: USER_ID_COOKIE_PATH,
            sameSite: 'strict',
            secure: app.config.secure,
            maxAge: LIMITS.cookieDays * 86_400,
          });
          return reply.code(200).send(outcome.url);
        }
      }
      if (outcome.kind === 'failed') return reply.code(401).send('Login failed');
      if (outcome.endSession) await app.sessions.end(request, reply);
      return reply.code(200).send(outcome.url);
    },
  );
}
