import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_BASE, type CurrentUser, portalUrl, type UserType } from '@cardportal/domain';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { accessedByOf, requireCaller } from '../../http/caller.ts';
import { sendError } from '../../http/errors.ts';
import { multiUserStateOf } from '../../shared/multi-user.ts';

/** The application behind the portal: only a full session reaches it. */
export async function appRoutes(app: FastifyInstance): Promise<void> {
  app.get('/app/api/me', async (request, reply) => {
    const caller = await requireCaller(app, request, reply);
    if (!caller) return reply;
    const session = await app.sessions.get(request);
    const accessedBy = accessedByOf(session?.data);
    const { linkId: _link, ...multiUser } = await multiUserStateOf(app.db, caller.pk, {
      chosen: session?.data.multiUserChosen === true,
      accessed: accessedBy !== null,
    });
    const user = caller.row;
    const me: CurrentUser = {
      userId: user.displayUserId,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      userType: user.userType as UserType,
      cobrand: session?.cobrand ?? user.cobrand,
      locale: caller.locale,
      lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
      permissions: [...caller.permissions].sort(),
      multiUser,
      accessedBy: accessedBy
        ? { userId: accessedBy.userId, firstName: accessedBy.firstName, lastName: accessedBy.lastName }
        : null,
    };
    return me;
  });

  app.all('/app/api/*', async (_request, reply) => sendError(reply, 404, 'not_found', 'No such call'));

  const dist = app.config.webDist;
  const indexFile = path.join(dist, 'index.html');
  await app.register(fastifyStatic, {
    dotfiles: 'ignore', // never serve .files (ASVS V4.3.2)
    root: path.join(dist, 'assets'),
    prefix: `${APP_BASE}assets/`,
    decorateReply: false,
    index: false,
    preCompressed: true,
    immutable: true,
    maxAge: '365d',
  });
  let indexHtml: string | undefined;

  const serveApp = async (
    request: Parameters<typeof app.sessions.get>[0],
    reply: import('fastify').FastifyReply,
  ) => {
    const session = await app.sessions.get(request);
    if (!session || session.stage !== 'full') {
      const query = request.query as { cobrandHost?: unknown };
      const cobrandHost = typeof query.cobrandHost === 'string' ? query.cobrandHost : undefined;
      return reply.header('cache-control', 'no-store').redirect(portalUrl('signin', { cobrandHost }), 302);
    }
    indexHtml ??= existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
    if (!indexHtml)
      return sendError(reply, 503, 'app.unbuilt', 'The application has not been built: run npm run build');
    app.sessions.ensureCsrf(request, reply);
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(indexHtml);
  };
  app.get('/app', async (_request, reply) => reply.redirect(APP_BASE, 301));
  app.get(APP_BASE, serveApp);
  app.get('/app/*', serveApp);
}
