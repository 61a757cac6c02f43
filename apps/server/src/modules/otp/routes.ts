import {
  apiErrorSchema,
  emptyObjectSchema,
  oneTimePinBodySchema,
  oneTimePinSentSchema,
  resolveLocale,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendError } from '../../http/errors.ts';
import { findUserByPk } from '../users/index.ts';

/** At most this many resends per OTP session. */
const MAX_RESENDS = 5;

/** Resend of the e-mailed one-time passcode (spec §7): only in an `otp` session. */
export async function otpRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/services/authentication-service/protected/one-time-pins',
    {
      schema: {
        querystring: emptyObjectSchema,
        body: oneTimePinBodySchema,
        response: {
          200: oneTimePinSentSchema,
          '4xx': apiErrorSchema.describe('No otp session (401, 403), too many resends (429)'),
        },
      },
      config: { rateLimit: { max: 10, timeWindow: '1 minute' }, signedIn: true },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = await app.sessions.require(request, reply, ['otp']);
      if (!session) return reply;
      const resends = Number(session.data.resends ?? 0);
      if (resends >= MAX_RESENDS)
        return sendError(reply, 429, 'otp.tooManyResends', 'Too many codes requested: sign in again');
      const user = await findUserByPk(app.db, session.userPk);
      if (!user) return sendError(reply, 401, 'session.required', 'No session: sign in first');
      const locale = resolveLocale(request.body.locale ?? session.locale);
      await app.sessions.setData(session, { resends: resends + 1 });
      const emailAddress = await app.login.sendCode(user, { cobrand: session.cobrand, locale });
      return { emailAddress };
    },
  );
}
