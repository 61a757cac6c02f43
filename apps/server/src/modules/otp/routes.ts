import { resolveLocale } from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../http/errors.ts';
import { findUserByPk } from '../../shared/users.ts';

/** At most this many resends per OTP session. */
const MAX_RESENDS = 5;

/** Resend of the e-mailed one-time passcode (spec §7): only in an `otp` session. */
export async function otpRoutes(app: FastifyInstance): Promise<void> {
  app.post(
    '/services/authentication-service/protected/one-time-pins',
    { config: { rateLimit: { max: 10, timeWindow: '1 minute' } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = await app.sessions.require(request, reply, ['otp']);
      if (!session) return reply;
      const resends = Number(session.data.resends ?? 0);
      if (resends >= MAX_RESENDS)
        return sendError(reply, 429, 'otp.tooManyResends', 'Too many codes requested: sign in again');
      const user = await findUserByPk(app.db, session.userPk);
      if (!user) return sendError(reply, 401, 'session.required', 'No session: sign in first');
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as {
        locale?: unknown;
      };
      const locale = resolveLocale(typeof body.locale === 'string' ? body.locale : session.locale);
      await app.sessions.setData(session, { resends: resends + 1 });
      const emailAddress = await app.login.sendCode(user, { cobrand: session.cobrand, locale });
      return { emailAddress };
    },
  );
}
