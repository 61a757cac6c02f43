import { portalUrl } from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../http/errors.ts';
import { verifySecret } from '../../security/hashing.ts';
import { audit } from '../../shared/audit.ts';
import { composeMail } from '../../shared/mail-text.ts';
import { enqueueMail } from '../../shared/outbox.ts';
import { findToken, isValidPin, setPin } from '../../shared/soft-token.ts';
import { findUserByPk } from '../../shared/users.ts';

/** New PIN and next token (spec §2, §7; DESIGN §5). */
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  app.get('/sdportal/rest/rsapin/information', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const action = (request.query as { action?: unknown }).action;
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
  });

  app.post<{ Params: { ldapId: string } }>(
    '/services/twofactortoken-service/protected/tokens/:ldapId',
    { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } },
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
      const body = (request.body && typeof request.body === 'object' ? request.body : {}) as {
        newPin?: unknown;
      };
      const pin = typeof body.newPin === 'string' ? body.newPin : '';
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
        ok: true,
        redirect: portalUrl('logout', { cobrandHost: session.cobrand, locale: session.locale }),
      };
    },
  );
}
