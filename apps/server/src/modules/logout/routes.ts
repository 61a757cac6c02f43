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
import { ssoPaths } from '../sso/index.ts';

/** The provider of the SSO session just ended, for the logout screen's labels (ten minutes). */
const SSO_LOGOUT_COOKIE = 'cp_sso_logout';

/** Logout (spec §2, §7): ends the session on the server; the portal shows its logout screen. */
export async function logoutRoutes(app: FastifyInstance): Promise<void> {
  const ssoLogoutCookie = {
    path: '/sdportal/rest/logoutrest/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: app.config.secure,
  };
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
      // The application ends the session before the portal's logout screen asks for its labels: which
      // provider an SSO session came through is kept for that screen a little while (docs/sso.md).
      const provider = ended?.sso ? ended.data.ssoProvider : undefined;
      if (typeof provider === 'string') {
        reply.setCookie(SSO_LOGOUT_COOKIE, provider, { ...ssoLogoutCookie, maxAge: 600 });
      } else if (ended) {
        reply.clearCookie(SSO_LOGOUT_COOKIE, ssoLogoutCookie);
      }
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
      // The portal asks before it ends the session (spec §4): a session signed in through a provider
      // is sent to that provider's end of session (docs/sso.md), else the co-brand's federated logout.
      const session = await app.sessions.get(request);
      const provider = session
        ? session.sso
          ? session.data.ssoProvider
          : undefined
        : request.cookies[SSO_LOGOUT_COOKIE];
      const known = typeof provider === 'string' && (await app.sso.provider(provider)) !== undefined;
      const labels: LogoutLabels = {
        'ng.you.have.been.logged.out': app.texts.text(locale, 'PortalLabels', 'logout.loggedOut'),
        'ng.return.to.login.screen': app.texts.text(locale, 'PortalLabels', 'logout.returnToLogin'),
        cobrandHostInfo: cobrand?.cobrand.name ?? DEFAULT_COBRAND,
        fssoLogoutUrl:
          known && typeof provider === 'string'
            ? ssoPaths(provider).logout
            : (cobrand?.cobrand.fssoLogoutUrl ?? null),
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
