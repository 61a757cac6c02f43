import {
  cobrandHostQuerySchema,
  cobrandLocaleQuerySchema,
  cobrandNameSchema,
  DEFAULT_COBRAND,
  emptyObjectSchema,
  type LogoutLabels,
  logoutLabelsSchema,
  portalUrl,
  resolveLocale,
} from '@cardportal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { answerOf } from '../../http/contract.ts';
import { audit } from '../../kernel/audit.ts';

/** Logout (spec §2, §7): ends the session on the server; the portal shows its logout screen. */
export async function logoutRoutes(app: FastifyInstance): Promise<void> {
  async function cobrandOf(request: FastifyRequest, fallback?: string) {
    const query = request.query as z.output<typeof cobrandHostQuerySchema>;
    const wanted = cobrandNameSchema.safeParse(query.cobrandHost ?? fallback);
    const found = wanted.success ? await app.cobrands.get(wanted.data) : null;
    return found ?? (await app.cobrands.get(DEFAULT_COBRAND));
  }

  const logoutScreen = answerOf('The logout screen URL (same-origin)', 'text/plain');
  app.get(
    '/heracles/logout',
    { schema: { querystring: cobrandHostQuerySchema, response: { 200: logoutScreen } } },
    async (request, reply) => {
      const ended = await app.sessions.end(request, reply);
      if (ended) await audit(app.db, 'logout', { userPk: ended.userPk, ip: request.ip });
      const cobrand = await cobrandOf(request, ended?.cobrand);
      const locale = resolveLocale(ended?.locale ?? request.cookies.user_locale, cobrand?.cobrand.locales);
      reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      return portalUrl('logout', { cobrandHost: cobrand?.cobrand.name, locale });
    },
  );

  app.get(
    '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink',
    { schema: { querystring: cobrandLocaleQuerySchema, response: { 200: logoutLabelsSchema } } },
    async (request, reply) => {
      const cobrand = await cobrandOf(request);
      // The page's locale first (issue 22: one language per page), the cookie only when none is given.
      const query = request.query as z.output<typeof cobrandLocaleQuerySchema>;
      const locale = resolveLocale(query.locale ?? request.cookies.user_locale, cobrand?.cobrand.locales);
      const labels: LogoutLabels = {
        'ng.you.have.been.logged.out': app.texts.text(locale, 'PortalLabels', 'logout.loggedOut'),
        'ng.return.to.login.screen': app.texts.text(locale, 'PortalLabels', 'logout.returnToLogin'),
        cobrandHostInfo: cobrand?.cobrand.name ?? DEFAULT_COBRAND,
        fssoLogoutUrl: cobrand?.cobrand.fssoLogoutUrl ?? null,
      };
      reply.header('cache-control', 'no-store');
      return labels;
    },
  );

  /** The URL that ends the session at the gateway; the portal GETs it (always one of ours). */
  app.get(
    '/sdportal/rest/logoutrest/externalLogoutUrl',
    {
      schema: {
        querystring: emptyObjectSchema,
        response: { 200: answerOf('The URL that ends the session (/heracles/logout)', 'text/plain') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      return '/heracles/logout';
    },
  );
}
