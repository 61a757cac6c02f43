import { I18N_BASE, isSupportedLocale } from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { sendCacheable } from '../../http/cache.ts';
import { sendError } from '../../http/errors.ts';
import { BUNDLE_NAMES, type BundleName } from '../../text/bundles.ts';

/** Text bundles (DESIGN §4): /sdportal/portalstatic/assets/i18n/{locale}/{PortalLabels,Messages}.json */
export async function textRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { locale: string; file: string } }>(
    `${I18N_BASE}:locale/:file`,
    async (request, reply) => {
      const { locale, file } = request.params;
      const name = file.replace(/\.json$/, '');
      if (
        !isSupportedLocale(locale) ||
        !file.endsWith('.json') ||
        !(BUNDLE_NAMES as readonly string[]).includes(name)
      ) {
        return sendError(reply, 404, 'bundle.not_found', 'No such text bundle');
      }
      const bundle = app.texts.get(locale, name as BundleName);
      return sendCacheable(request, reply, bundle.body, {
        etag: bundle.etag,
        contentType: 'application/json; charset=utf-8',
        maxAge: 300,
      });
    },
  );
}
