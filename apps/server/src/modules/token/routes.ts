import {
  apiErrorSchema,
  emptyObjectSchema,
  ldapIdParamsSchema,
  newPinBodySchema,
  pinSetSchema,
  portalUrl,
  tokenInformationQuerySchema,
  tokenInformationSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendError } from '../../http/errors.ts';
import { audit } from '../../kernel/audit.ts';
import { enqueueMail } from '../../kernel/outbox.ts';
import { verifySecret } from '../../security/hashing.ts';
import { composeMail } from '../mail/index.ts';
import { findUserByPk } from '../users/index.ts';
import { findToken, isValidPin, setPin } from './soft-token.ts';

/** New PIN and next token (spec §2, §7; DESIGN §5). */
export async function tokenRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/sdportal/rest/rsapin/information',
    { schema: { querystring: tokenInformationQuerySchema, response: { 200: tokenInformationSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { action } = request.query;
      const stage = action === 'newpin' ? 'new-pin' : action === 'nexttoken' ? 'next-token' : undefined;
      const session = await app.sessions.get(request);
      const user =
        session && stage && session.stage === stage ? await findUserByPk(app.db, session.userPk) : undefined;
      if (!user) return { shouldAccess: false, forwardFormEndpoint: '/heracles/login' };
      return {
        shouldAccess: true,
        forwardFormEndpoint: '/heracles/login',
        ldapId: user.ldapId,
        b2BAlias: user.b2bAlias,
      };
    },
  );

  app.post(
    '/services/twofactortoken-service/protected/tokens/:ldapId',
    {
      schema: {
        params: ldapIdParamsSchema,
        querystring: emptyObjectSchema,
        body: newPinBodySchema,
        response: {
          200: pinSetSchema,
          '4xx': apiErrorSchema.describe(
            'Invalid PIN (400, status text "Invalid PIN"), no new-pin session (401, 403), another user (403)',
          ),
        },
      },
      config: { rateLimit: { max: 20, timeWindow: '1 minute' }, signedIn: true },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = await app.sessions.require(request, reply, ['new-pin']);
      if (!session) return reply;
      const user = await findUserByPk(app.db, session.userPk);
      if (!user || user.ldapId !== request.params.ldapId) {
        return sendError(reply, 403, 'token.forbidden', 'This token belongs to another user');
      }
      if (session.data.passcodeVerified !== true) {
        return sendError(reply, 403, 'passcode.required', 'Enter the next passcode first');
      }
      const pin = request.body.newPin ?? '';
      const token = await findToken(app.db, user.id);
      if (!token) return sendError(reply, 403, 'token.missing', 'No token is assigned');
      if (!isValidPin(pin) || (await verifySecret(token.pinHash, pin))) {
        reply.raw.statusMessage = 'Invalid PIN';
        return sendError(
          reply,
          400,
          'pin.invalid',
          'Invalid PIN: four digits, no leading zero, not the default PIN',
        );
      }
      const notice = await composeMail(
        app,
        'pin-changed',
        user,
        { cobrand: session.cobrand, locale: session.locale },
        [user.displayUserId],
      );
      await app.db.transaction(async (tx) => {
        await setPin(tx, user.id, pin);
        await enqueueMail(tx, notice);
      });
      app.mailWorker.kick();
      await audit(app.db, 'token.pin-set', { userPk: user.id, ip: request.ip });
      await app.sessions.end(request, reply);
      return {
        ok: true as const,
        redirect: portalUrl('logout', { cobrandHost: session.cobrand, locale: session.locale }),
      };
    },
  );
}
