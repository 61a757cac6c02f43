import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  APP_BASE,
  apiErrorSchema,
  type CurrentUser,
  currentUserSchema,
  emptyObjectSchema,
  lenient,
  noBodySchema,
  portalUrl,
  wildcardParamsSchema,
} from '@cardportal/domain';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { appHandler } from '../../http/app-handler.ts';
import { accessedByOf } from '../../http/caller.ts';
import { answerOf, describeFileRoutes, emptyAnswer } from '../../http/contract.ts';
import { sendError } from '../../http/errors.ts';
import { multiUserStateOf } from '../multi-user/index.ts';

/** `?cobrandHost=` of an application page: where a caller without a session signs in. */
const appPageQuerySchema = z.object({ cobrandHost: lenient(z.string()) });

/** The application behind the portal: only a full session reaches it. */
export async function appRoutes(app: FastifyInstance): Promise<void> {
  const handle = appHandler(app);

  app.get(
    '/app/api/me',
    handle(
      async ({ caller, request }) => {
        const session = await app.sessions.get(request);
        const accessedBy = accessedByOf(session?.data);
        const { linkId: _link, ...multiUser } = await multiUserStateOf(app.db, caller.userPk, {
          chosen: session?.data.multiUserChosen === true,
          accessed: accessedBy !== null,
        });
        const { profile } = caller;
        const me: CurrentUser = {
          userId: caller.userId,
          firstName: profile.firstName,
          lastName: profile.lastName,
          email: profile.email,
          userType: caller.type,
          cobrand: session?.cobrand ?? caller.cobrand,
          locale: caller.locale,
          lastLoginAt: profile.lastLoginAt?.toISOString() ?? null,
          permissions: [...caller.permissions].sort(),
          multiUser,
          accessedBy: accessedBy
            ? { userId: accessedBy.userId, firstName: accessedBy.firstName, lastName: accessedBy.lastName }
            : null,
        };
        return me;
      },
      { permission: 'signedIn', response: currentUserSchema },
    ),
  );

  // Any other call under /app/api: 404 JSON, for every method (a body, where a method has one, ignored).
  const noSuchCall = async (_request: unknown, reply: FastifyReply) =>
    sendError(reply, 404, 'not_found', 'No such call');
  const notFound = {
    params: wildcardParamsSchema,
    querystring: emptyObjectSchema,
    response: { 404: apiErrorSchema.describe('No such call') },
  };
  app.route({ method: ['GET', 'HEAD', 'TRACE'], url: '/app/api/*', schema: notFound, handler: noSuchCall });
  app.route({
    method: ['DELETE', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY'],
    url: '/app/api/*',
    schema: { ...notFound, body: noBodySchema },
    handler: noSuchCall,
  });

  const dist = app.config.webDist;
  const indexFile = path.join(dist, 'index.html');
  describeFileRoutes(
    app,
    `${APP_BASE}assets/`,
    'A built file of the application (hashed name, cached a year)',
  );
  await app.register(fastifyStatic, {
    dotfiles: 'ignore', // never serve .files (ASVS V4.3.2)
    root: path.join(dist, 'assets'),
    prefix: `${APP_BASE}assets/`,
    schemaHide: false,
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
      const { cobrandHost } = request.query as z.output<typeof appPageQuerySchema>;
      return reply.header('cache-control', 'no-store').redirect(portalUrl('signin', { cobrandHost }), 302);
    }
    indexHtml ??= existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
    if (!indexHtml)
      return sendError(reply, 503, 'app.unbuilt', 'The application has not been built: run npm run build');
    app.sessions.ensureCsrf(request, reply);
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(indexHtml);
  };
  const page = {
    querystring: appPageQuerySchema,
    response: {
      200: answerOf('The application (a full session)', 'text/html'),
      302: emptyAnswer('No full session: to the portal sign-in screen'),
      503: apiErrorSchema.describe('The application has not been built'),
    },
  };
  app.get(
    '/app',
    { schema: { querystring: emptyObjectSchema, response: { 301: emptyAnswer('To /app/') } } },
    async (_request, reply) => reply.redirect(APP_BASE, 301),
  );
  app.get(APP_BASE, { schema: page }, serveApp);
  app.get('/app/*', { schema: { ...page, params: wildcardParamsSchema } }, serveApp);
}
