import { cobrandNameSchema, LIMITS, resolveLocale } from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../http/errors.ts';
import { LoginService } from './service.ts';

interface LoginForm {
  username?: unknown;
  password?: unknown;
  'login-form-type'?: unknown;
  cobrandHost?: unknown;
  locale?: unknown;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export async function loginRoutes(app: FastifyInstance): Promise<void> {
  const service = new LoginService(app.db, app.secrets);

  /** Login descriptor (spec §3): ldapId, loginType, b2BAlias — a stable decoy for unknown IDs. */
  app.post<{ Body: { userId?: unknown } }>(
    '/sdportal/rest/user/loginSignin',
    { config: { rateLimit: { max: 120, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const userId = typeof request.body === 'object' && request.body ? text(request.body.userId).trim() : '';
      if (!userId) return sendError(reply, 400, 'userId.required', 'userId is required', { userId: 'required' });
      if (userId.length > LIMITS.userIdMaxLength) {
        return sendError(reply, 400, 'userId.tooLong', `userId must be at most ${LIMITS.userIdMaxLength} characters`);
      }
      reply.header('cache-control', 'no-store');
      return service.findDescriptor(userId);
    },
  );

  /** Sign-in (DESIGN §5): answers the URL to go to as text; 401 for a failure; 500 on a system error. */
  app.post<{ Body: LoginForm }>(
    '/heracles/login',
    { config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      const body: LoginForm = typeof request.body === 'object' && request.body ? request.body : {};
      const formType = text(body['login-form-type']) || 'password';
      if (!['password', 'otp', 'token', 'next-token'].includes(formType)) {
        return reply.code(400).send('Unsupported login-form-type');
      }
      const cobrand = cobrandNameSchema.safeParse(text(body.cobrandHost));
      const cobrandHost = cobrand.success && (await app.cobrands.get(cobrand.data)) ? cobrand.data : undefined;
      const cobrandRecord = cobrandHost ? await app.cobrands.get(cobrandHost) : null;
      const locale = resolveLocale(text(body.locale) || request.cookies.user_locale, cobrandRecord?.cobrand.locales);

      const outcome = await service.passwordLogin({
        username: text(body.username),
        password: text(body.password),
        ip: request.ip,
        cobrandHost,
        locale,
      });
      if (outcome.kind === 'failed') return reply.code(401).send('Login failed');
      if (outcome.kind === 'locked') {
        await app.sessions.end(request, reply);
        return reply.code(200).send(outcome.url);
      }
      const { user, stage, url } = outcome;
      await app.sessions.start(request, reply, {
        userPk: user.id,
        stage,
        cobrand: cobrandHost ?? user.cobrand,
        locale,
        sso: user.sso,
      });
      reply.setCookie('ssoUserCookie', String(user.sso), {
        path: '/',
        sameSite: 'lax',
        secure: app.config.secure,
        maxAge: LIMITS.cookieDays * 86_400,
      });
      return reply.code(200).send(url);
    },
  );
}

