import {
  APP_BASE,
  apiErrorSchema,
  cobrandLocaleQuerySchema,
  cobrandNameSchema,
  DEFAULT_COBRAND,
  emptyObjectSchema,
  LIMITS,
  portalUrl,
  resolveLocale,
  SSO_ATTEMPT_MINUTES,
  samlAcsBodySchema,
  ssoCallbackQuerySchema,
  ssoParamsSchema,
} from '@cardportal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emptyAnswer } from '../../http/contract.ts';
import { sendError } from '../../http/errors.ts';
import { ssoPaths } from './service.ts';

/** The browser's half of an attempt (its SHA-256 is the attempt's binding): sent back to our SSO paths only. */
export const SSO_BINDING_COOKIE = 'cp_sso';

/**
 * Single sign-on's browser legs (docs/sso.md): start (to the provider), callback (from it: a session, or
 * the portal's screen saying why not), logout (to the provider's end of session) and signed-out (back
 * to the sign-in). Each answers 302; an unknown provider 404.
 */
export async function ssoRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const service = app.sso;
  const unknown = (reply: FastifyReply) =>
    sendError(reply, 404, 'sso.unknownProvider', 'No identity provider has this key');
  const params = ssoParamsSchema;
  const config = {
    rateLimit: { max: 60, timeWindow: '1 minute' },
    // A path that names no provider is 404; a query no provider would send (a parameter repeated or
    // too long) is 400, named.
    invalid: (_error: unknown, request: FastifyRequest, reply: FastifyReply) =>
      ssoParamsSchema.safeParse(request.params).success
        ? sendError(reply, 400, 'sso.invalidQuery', 'The query is not an authorization response')
        : unknown(reply),
  };
  const notFound = apiErrorSchema.describe('No identity provider has this key (sso.unknownProvider)');
  const badQuery = apiErrorSchema.describe(
    'A query no provider sends: a parameter repeated or too long (sso.invalidQuery)',
  );
  /** Every route answers 302 (no-store), 400 for a query no provider sends, 404 for an unknown key. */
  const answers = (redirect: string) => ({ 302: emptyAnswer(redirect), 400: badQuery, 404: notFound });
  /** The provider the path names; 404 answered when none. */
  const providerOf = async (key: string, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const provider = await service.provider(key);
    if (!provider) unknown(reply);
    return provider;
  };
  const bindingCookie = {
    path: '/sdportal/sso/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: app.config.secure,
  };

  app.get(
    '/sdportal/sso/:key',
    {
      schema: {
        params,
        querystring: cobrandLocaleQuerySchema,
        response: answers('To the provider, or to the portal when it cannot be reached'),
      },
      config,
    },
    async (request, reply) => {
      const provider = await providerOf(request.params.key, reply);
      if (!provider) return reply;
      const wanted = cobrandNameSchema.safeParse(request.query.cobrandHost ?? provider.cobrand ?? '');
      const cobrand =
        (wanted.success ? await app.cobrands.get(wanted.data) : null) ??
        (await app.cobrands.get(DEFAULT_COBRAND));
      const cobrandHost = cobrand?.cobrand.name ?? null;
      const locale = resolveLocale(
        request.query.locale ?? request.cookies.user_locale,
        cobrand?.cobrand.locales,
      );
      try {
        const { url, binding } = await service.begin(provider, { cobrand: cobrandHost, locale });
        reply.setCookie(SSO_BINDING_COOKIE, binding, { ...bindingCookie, maxAge: SSO_ATTEMPT_MINUTES * 60 });
        return reply.redirect(url, 302);
      } catch (error) {
        request.log.warn(
          { provider: provider.key, err: (error as Error).message },
          'identity provider unreachable',
        );
        return reply.redirect(
          portalUrl('locked', { cobrandHost: cobrandHost ?? undefined, locale, reason: 'sso' }),
          302,
        );
      }
    },
  );

  // SAML 2.0's assertion consumer service (HTTP-POST binding): the IdP's page posts the response here
  // from its own site. Verified, it leads on to the callback, where the browser's binding cookie is
  // checked (a cross-site POST carries no SameSite=Lax cookie; the GET it is redirected to does).
  app.post(
    '/sdportal/sso/:key/acs',
    {
      schema: {
        params,
        querystring: emptyObjectSchema,
        body: samlAcsBodySchema,
        response: {
          303: emptyAnswer('To the callback (a verified response), or to the portal saying why not'),
          400: badQuery,
          404: notFound,
        },
      },
      config: { ...config, bodyType: 'application/x-www-form-urlencoded', samlAssertionConsumer: true },
    },
    async (request, reply) => {
      const provider = await providerOf(request.params.key, reply);
      if (!provider) return reply;
      if (provider.protocol !== 'saml') return unknown(reply);
      const outcome = await service.consumeSaml(provider, request.body, request.ip);
      if (outcome.kind === 'continue') return reply.redirect(outcome.url, 303);
      const fallback = await app.cobrands.get(outcome.cobrand ?? DEFAULT_COBRAND);
      const locale = resolveLocale(outcome.locale ?? request.cookies.user_locale, fallback?.cobrand.locales);
      return reply.redirect(
        portalUrl('locked', { cobrandHost: outcome.cobrand ?? undefined, locale, reason: outcome.screen }),
        303,
      );
    },
  );

  app.get(
    '/sdportal/sso/:key/callback',
    {
      schema: {
        params,
        querystring: ssoCallbackQuerySchema,
        response: answers('To the application (a full session), or to the portal saying why not'),
      },
      config,
    },
    async (request, reply) => {
      const provider = await providerOf(request.params.key, reply);
      if (!provider) return reply;
      const query = new URLSearchParams(
        request.url.slice(request.url.indexOf('?') + 1 || request.url.length),
      );
      const outcome = await service.finish(provider, query, request.cookies[SSO_BINDING_COOKIE], request.ip);
      reply.clearCookie(SSO_BINDING_COOKIE, bindingCookie);
      if (outcome.kind === 'failed') {
        const fallback = await app.cobrands.get(outcome.cobrand ?? DEFAULT_COBRAND);
        const locale = resolveLocale(
          outcome.locale ?? request.cookies.user_locale,
          fallback?.cobrand.locales,
        );
        return reply.redirect(
          portalUrl('locked', { cobrandHost: outcome.cobrand ?? undefined, locale, reason: outcome.screen }),
          302,
        );
      }
      await app.sessions.start(request, reply, {
        userPk: outcome.user.id,
        stage: 'full',
        cobrand: outcome.cobrand ?? outcome.user.cobrand,
        locale: outcome.locale,
        sso: true,
        data: { ssoProvider: provider.key },
      });
      reply.setCookie('ssoUserCookie', 'true', {
        path: '/',
        sameSite: 'lax',
        secure: app.config.secure,
        maxAge: LIMITS.cookieDays * 86_400,
      });
      return reply.redirect(APP_BASE, 302);
    },
  );

  app.get(
    '/sdportal/sso/:key/logout',
    {
      schema: {
        params,
        querystring: emptyObjectSchema,
        response: answers("To the provider's end of session, or straight back when it has none"),
      },
      config,
    },
    async (request, reply) => {
      const provider = await providerOf(request.params.key, reply);
      if (!provider) return reply;
      const target = await service.endSessionUrl(provider).catch((error: Error) => {
        request.log.warn({ provider: provider.key, err: error.message }, 'identity provider unreachable');
        return undefined;
      });
      return reply.redirect(target ?? ssoPaths(provider.key).signedOut, 302);
    },
  );

  app.get(
    '/sdportal/sso/:key/signed-out',
    {
      schema: {
        params,
        querystring: ssoCallbackQuerySchema,
        response: answers('To the sign-in screen of the provider’s co-brand'),
      },
      config,
    },
    async (request, reply) => {
      const provider = await providerOf(request.params.key, reply);
      if (!provider) return reply;
      return reply.redirect(portalUrl('signin', { cobrandHost: provider.cobrand ?? undefined }), 302);
    },
  );
}
