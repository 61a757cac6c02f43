import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  APP_BASE,
  apiErrorSchema,
  type ChangePasswordServiceUrls,
  changePasswordServiceUrlsSchema,
  cobrandHostQuerySchema,
  cobrandNameSchema,
  csrfIssuedSchema,
  DEFAULT_COBRAND,
  emptyObjectSchema,
  FOOTER_LOGO_BASE,
  fileParamsSchema,
  I18N_BASE,
  isPortalScreen,
  isSupportedLocale,
  isUsableLocaleCookie,
  LIMITS,
  LOGO_BASE,
  LOGO_EXTENSIONS,
  type Locale,
  logStatementBodySchema,
  noContentSchema,
  PORTAL_BASE,
  portalUrl,
  queryText,
  resolveLocale,
  sessionPingSchema,
  sessionWarningSchema,
  toLanguageTag,
  wildcardParamsSchema,
} from '@cardportal/domain';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendCacheable } from '../../http/cache.ts';
import { answerOf, describeFileRoutes, emptyAnswer } from '../../http/contract.ts';
import { sendError } from '../../http/errors.ts';
import type { PublicCobrand } from '../cobrand/index.ts';
import { recordClientLog } from './client-logs.ts';
import { type BootData, ServerRender } from './server-render.ts';

/**
 * The query of a portal screen: the co-brand and language it is for, and the sign-in screen's
 * `invalidLogin` flag (a repeated parameter counts by its first value).
 */
const screenQuerySchema = z.object({
  cobrandHost: queryText.describe('The co-brand name or abbreviation'),
  locale: queryText.describe('The language (en_US, de, ...)'),
  invalidLogin: queryText.describe('"true": the sign-in screen shows its failed-login message'),
});

/** A logo file name the logo routes serve (apps/server/src/modules/cobrand/routes.ts). */
const ASSET_FILE = /^[a-z0-9][a-z0-9-]{0,39}\.(png|jpg|gif)$/;

/**
 * The portal's own calls (spec §7) and the portal SPA itself: hashed assets are immutable; every
 * screen path answers index.html (404 for paths that are not a screen, which the SPA shows as its
 * not-found screen) with fresh session and sec-token cookies.
 */
export async function portalRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { config } = app;

  app.get(
    '/sdportal/rest/csrf',
    { schema: { querystring: emptyObjectSchema, response: { 200: csrfIssuedSchema } } },
    async (request, reply) => {
      app.sessions.ensureCsrf(request, reply);
      reply.header('cache-control', 'no-store');
      return { ok: true as const };
    },
  );

  app.get(
    '/sdportal/rest/changepasswordserviceurls',
    { schema: { querystring: emptyObjectSchema, response: { 200: changePasswordServiceUrlsSchema } } },
    async (_request, reply) => {
      const urls: ChangePasswordServiceUrls = {
        changePassword: portalUrl('change-password'),
        autoLogout: '/heracles/logout',
        cancelPasswordReset: `${APP_BASE}profile`,
      };
      reply.header('cache-control', 'no-store');
      return urls;
    },
  );

  /** Error statements from the portal: size-limited, stored, never echoed (not even into the log). */
  app.put(
    '/sdportal/rest/log/logErrorStatement.json',
    {
      bodyLimit: LIMITS.clientLogMaxBytes,
      schema: {
        querystring: emptyObjectSchema,
        body: logStatementBodySchema,
        response: {
          204: noContentSchema,
          '4xx': apiErrorSchema.describe('Not a JSON string or { message } (400), too large (413)'),
        },
      },
      config: {
        rateLimit: { max: 30, timeWindow: '1 minute' },
        invalid: (_error, _request, reply) =>
          sendError(reply, 400, 'log.invalid', 'Body must be a JSON string or { "message": string }'),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const message = typeof body === 'string' ? body : body.message;
      await recordClientLog(app.db, { message, ip: request.ip, userAgent: request.headers['user-agent'] });
      return reply.code(204).send();
    },
  );

  /** The warning's texts and timings depend on the language alone: serialised once per locale. */
  const warningBodies = new Map<string, string>();
  const warningBody = (locale: Locale): string => {
    let body = warningBodies.get(locale);
    if (body === undefined) {
      const t = (key: string) => app.texts.text(locale, 'PortalLabels', key);
      body = JSON.stringify({
        sessionExpireWarningBoxTitle: t('sessionExpire.title'),
        generalSessionAboutToExpireMessage: t('sessionExpire.message'),
        sessionExpireContinueButtonLabel: t('sessionExpire.continue'),
        sessionExpireLogoutButtonLabel: t('sessionExpire.logout'),
        warningAfterMs: config.sessionWarningMs,
        countdownSeconds: LIMITS.sessionCountdownSeconds,
      });
      warningBodies.set(locale, body);
    }
    return body;
  };

  app.get(
    '/sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json',
    // Kept serialised per language: the schema describes it.
    { schema: { querystring: cobrandHostQuerySchema, response: { 200: sessionWarningSchema } } },
    async (request, reply) => {
      const session = await app.sessions.get(request);
      const wanted = cobrandNameSchema.safeParse(request.query.cobrandHost ?? session?.cobrand);
      const cobrand =
        (wanted.success ? await app.cobrands.get(wanted.data) : null) ??
        (await app.cobrands.get(DEFAULT_COBRAND));
      const locale = resolveLocale(session?.locale ?? request.cookies.user_locale, cobrand?.cobrand.locales);
      return reply
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(warningBody(locale) as never); // already JSON: a string is sent as it is
    },
  );

  app.get(
    '/sdportal/rest/sessionExpire/pingPortal.json',
    {
      schema: {
        querystring: emptyObjectSchema,
        response: { 200: sessionPingSchema, 401: apiErrorSchema.describe('No session to renew') },
      },
      config: { signedIn: true },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const session = await app.sessions.get(request);
      if (!session) return sendError(reply, 401, 'session.required', 'No session to renew');
      await app.sessions.touch(session);
      return { ok: true as const, expiresAt: session.expiresAt.toISOString() };
    },
  );

  // The built portal. Hashed files under assets/ never change: cache them for a year.
  const dist = config.portalDist;
  const indexFile = path.join(dist, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ dist }, 'portal build missing: run npm run build');
  }
  describeFileRoutes(app, `${PORTAL_BASE}assets/`, 'A built file of the portal (hashed name, cached a year)');
  await app.register(fastifyStatic, {
    dotfiles: 'ignore', // never serve .files (ASVS V4.3.2)
    root: path.join(dist, 'assets'),
    prefix: `${PORTAL_BASE}assets/`,
    schemaHide: false,
    decorateReply: false,
    wildcard: true,
    index: false,
    preCompressed: true,
    immutable: true,
    maxAge: '365d',
  });
  // The sign-in screen rendered on the server (issue 6): the portal build's render artifact.
  const { render, problem } = await ServerRender.load(dist);
  if (!render) app.log.warn({ dist, problem }, 'portal server render unavailable: the client renders alone');

  /** The co-brand theme as a stylesheet (see server-render.ts): linked from the rendered pages. */
  const theme = {
    params: fileParamsSchema,
    querystring: emptyObjectSchema,
    response: {
      200: answerOf("The co-brand's theme", 'text/css'),
      304: emptyAnswer('Not modified (ETag / If-None-Match)'),
      404: apiErrorSchema.describe('No such theme'),
    },
  };
  app.get(`${PORTAL_BASE}theme/:file`, { schema: theme }, async (request, reply) => {
    const name = /^([a-z0-9][a-z0-9-]{1,39})\.css$/.exec(request.params.file)?.[1];
    const found = name ? await app.cobrands.get(name) : null;
    const css = render && found ? render.themeCss(found.cobrand.theme) : '';
    if (!css) return sendError(reply, 404, 'theme.not_found', 'No such theme');
    return sendCacheable(request, reply, css, { contentType: 'text/css; charset=utf-8', maxAge: 900 });
  });

  /** The first existing logo of a folder, in the order the portal's HEAD probes ask. */
  const firstAsset = async (base: string, folder: string, stem: string): Promise<string | null> => {
    for (const ext of LOGO_EXTENSIONS) {
      const file = `${stem}.${ext}`;
      if (ASSET_FILE.test(file) && (await app.cobrands.asset(`${folder}/${file}`))) return `${base}${file}`;
    }
    return null;
  };

  /** Parsed co-brand records, per cache fill of the co-brand service. */
  const records = new WeakMap<PublicCobrand, unknown>();
  const recordOf = (found: PublicCobrand): unknown => {
    let record = records.get(found);
    if (record === undefined) {
      record = JSON.parse(found.body) as unknown;
      records.set(found, record);
    }
    return record;
  };

  let indexHtml: string | undefined;
  const readIndex = () => {
    indexHtml ??= existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
    return indexHtml;
  };

  /**
   * What the portal's bootstrap (apps/portal/src/app/bootstrap.ts) will do on this page load, worked
   * out with the same rules when the page names its co-brand (`cobrandHost`; without it the portal
   * may use the co-brand in the tab's session storage, which only the browser knows): the co-brand it
   * ends up with (the name, else the abbreviation's co-brand, else the default), its locale (`locale`
   * query, else the `user_locale` cookie, mapped to the co-brand's languages), and whether the
   * sign-in locale rule would rewrite the cookie and reload. Undefined when it cannot be known.
   */
  const foreseeBootstrap = async (
    request: FastifyRequest,
  ): Promise<
    | {
        requested: string;
        found: PublicCobrand;
        cobrand: string;
        locale: Locale;
        rewriteCookie: boolean;
        sso: boolean;
      }
    | undefined
  > => {
    const query = request.query as Record<string, unknown>;
    const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);
    const raw = first(query.cobrandHost);
    const wanted = cobrandNameSchema.safeParse(typeof raw === 'string' ? raw.trim().toLowerCase() : '');
    if (!wanted.success) return undefined;
    const name = wanted.data;
    let found = await app.cobrands.get(name);
    if (!found && /^[a-z0-9]{2,8}$/.test(name)) {
      const resolved = await app.cobrands.nameForAbbreviation(name);
      if (resolved && resolved !== name) found = await app.cobrands.get(resolved);
    }
    if (!found && name !== DEFAULT_COBRAND) found = await app.cobrands.get(DEFAULT_COBRAND);
    if (!found) return undefined;
    const offered = found.cobrand.locales.filter(isSupportedLocale);
    const cookie = request.cookies.user_locale;
    const queryLocale = first(query.locale);
    const locale = resolveLocale(typeof queryLocale === 'string' ? queryLocale : cookie, offered);
    const cookieUsable = isUsableLocaleCookie(cookie, offered);
    return {
      requested: name,
      found,
      cobrand: found.cobrand.name,
      locale,
      rewriteCookie: !cookieUsable,
      sso: Boolean(found.cobrand.fssoRedirectUrl),
    };
  };

  const serveScreen = async (
    screen: string,
    request: FastifyRequest,
    reply: Parameters<typeof app.sessions.ensureCsrf>[1],
  ) => {
    const html = readIndex();
    if (!html)
      return sendError(reply, 503, 'portal.unbuilt', 'The portal has not been built: run npm run build');
    app.sessions.ensureCsrf(request, reply);
    const known = screen === '' || isPortalScreen(screen);
    const signin = screen === '' || screen === 'signin';
    const boot = await foreseeBootstrap(request);
    if (boot && render) {
      // Issue 6: what the bootstrap needs is in the page itself, and sign-in arrives rendered.
      const { page, themeHref } = await renderedPage(render, boot, signin, request);
      const preloads = [...render.stylesheetPreloads];
      if (themeHref) preloads.push(`<${themeHref}>; rel=preload; as=style`);
      if (preloads.length > 0) reply.header('link', preloads.join(', '));
      setLocaleCookie(signin, boot, reply);
      const accepted = String(request.headers['accept-encoding'] ?? '');
      const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
      reply
        .code(known ? 200 : 404)
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .type('text/html; charset=utf-8');
      if (encoding) return reply.header('content-encoding', encoding).send(page[encoding]);
      return reply.send(page.html);
    }
    // A co-brand with federated SSO sends the sign-in page away before it renders: nothing to help.
    if (boot && !(signin && boot.sso)) {
      // Page speed (issue 6), without the server render: the JSON the bootstrap needs before its
      // first render, fetched while the script is still downloading instead of after it ran
      // (Chromium hands the preloaded response to the portal's fetch).
      const preload = [
        `/sdportal/rest/cobrand/${boot.cobrand}`,
        `/sdportal/rest/cobrands/${boot.cobrand}/locales`,
        `${I18N_BASE}${boot.locale}/PortalLabels.json`,
        `${I18N_BASE}${boot.locale}/Messages.json`,
      ];
      reply.header('link', preload.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin`).join(', '));
      setLocaleCookie(signin, boot, reply);
    }
    return reply
      .code(known ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  };

  /**
   * Spec §4 locale rule, applied here rather than by a reload: the cookie the portal would write
   * before reloading is already in this answer, so the first visit costs one page load, not two.
   * Same cookie as the portal's writeCookie (readable by it: not HttpOnly). Not for an SSO co-brand's
   * sign-in, which leaves at once.
   */
  const setLocaleCookie = (
    signin: boolean,
    boot: { rewriteCookie: boolean; sso: boolean; locale: Locale },
    reply: Parameters<typeof app.sessions.ensureCsrf>[1],
  ) => {
    if (!signin || boot.sso || !boot.rewriteCookie) return;
    reply.setCookie('user_locale', boot.locale, {
      path: '/',
      maxAge: LIMITS.cookieDays * 24 * 60 * 60,
      sameSite: 'lax',
      secure: config.secure,
      httpOnly: false,
    });
  };

  /** The page with the boot data embedded, and on sign-in the screen rendered (cached per inputs). */
  const renderedPage = async (
    server: ServerRender,
    boot: NonNullable<Awaited<ReturnType<typeof foreseeBootstrap>>>,
    signin: boolean,
    request: FastifyRequest,
  ) => {
    const { found, locale } = boot;
    const name = found.cobrand.name;
    const abbreviation = found.cobrand.abbreviation ?? '';
    const [logo, footerLogo] = await Promise.all([
      firstAsset(LOGO_BASE, 'logos', name),
      abbreviation ? firstAsset(FOOTER_LOGO_BASE, 'footers', abbreviation) : Promise.resolve(null),
    ]);
    const invalidLogin = (request.query as Record<string, unknown>).invalidLogin === 'true';
    // An SSO co-brand's sign-in leaves at once (the client redirects from the embedded record).
    const renderSignin = signin && !boot.sso;
    const themeCss = server.themeCss(found.cobrand.theme);
    const themeHref = themeCss
      ? `${PORTAL_BASE}theme/${name}.css?v=${ServerRender.themeVersion(themeCss)}`
      : undefined;
    const key = [boot.requested, found.etag, locale, renderSignin, invalidLogin, logo, footerLogo].join('|');
    const data: BootData = {
      v: server.bootDataVersion,
      requested: boot.requested,
      cobrandName: name,
      record: recordOf(found),
      locales: JSON.parse(found.localesBody) as Record<string, string>,
      locale,
      labels: app.texts.get(locale, 'PortalLabels').texts,
      messages: app.texts.get(locale, 'Messages').texts,
      logo,
      footerLogo,
    };
    const page = server.page(key, {
      data,
      signin: renderSignin,
      invalidLogin: renderSignin && invalidLogin,
      langTag: toLanguageTag(locale),
      themeHref,
    });
    return { page, themeHref };
  };

  const screen = {
    querystring: screenQuerySchema,
    response: {
      200: answerOf('The screen (the portal SPA; sign-in rendered on the server)', 'text/html'),
      404: answerOf('Not a screen: the SPA shows its not-found screen', 'text/html'),
      503: apiErrorSchema.describe('The portal has not been built'),
    },
  };
  app.get(
    '/sdportal/portalstatic',
    { schema: { querystring: emptyObjectSchema, response: { 301: emptyAnswer(`To ${PORTAL_BASE}`) } } },
    async (_request, reply) => reply.redirect(PORTAL_BASE, 301),
  );
  app.get(PORTAL_BASE, { schema: screen }, (request, reply) => serveScreen('', request, reply));
  app.get(`${PORTAL_BASE}*`, { schema: { ...screen, params: wildcardParamsSchema } }, (request, reply) =>
    serveScreen(request.params['*'].replace(/\/$/, ''), request, reply),
  );
  app.get(
    '/',
    {
      schema: {
        querystring: screenQuerySchema,
        response: { 302: emptyAnswer('To the sign-in screen, with the same query') },
      },
    },
    async (request, reply) => {
      const query = new URL(request.url, 'http://x').search;
      return reply.redirect(`${PORTAL_BASE}signin${query}`, 302);
    },
  );
}
