import {
  apiErrorSchema,
  emptyObjectSchema,
  I18N_BASE,
  isAppTextNamespace,
  isSupportedLocale,
  textBundleParamsSchema,
  textBundleSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendCacheable } from '../../http/cache.ts';
import { emptyAnswer } from '../../http/contract.ts';
import { sendError } from '../../http/errors.ts';
import { BUNDLE_NAMES, type BundleName } from '../../text/bundles.ts';

/**
 * Text bundles (DESIGN §4): /sdportal/portalstatic/assets/i18n/{locale}/{PortalLabels,Messages}.json, and
 * beside them the application's namespaces cut from both, `app-{namespace}.json` (docs/text.md).
 */
export async function textRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    `${I18N_BASE}:locale/:file`,
    {
      schema: {
        params: textBundleParamsSchema,
        querystring: emptyObjectSchema,
        // Kept serialised (with its ETag): the schema describes it.
        response: {
          200: textBundleSchema,
          304: emptyAnswer('Not modified (ETag / If-None-Match)'),
          404: apiErrorSchema.describe('Unknown locale or bundle'),
        },
      },
    },
    async (request, reply) => {
      const { locale, file } = request.params;
      const name = file.replace(/\.json$/, '');
      const namespace = name.startsWith('app-') ? name.slice('app-'.length) : '';
      const isNamespace = isAppTextNamespace(namespace);
      if (
        !isSupportedLocale(locale) ||
        !file.endsWith('.json') ||
        !(isNamespace || (BUNDLE_NAMES as readonly string[]).includes(name))
      ) {
        return sendError(reply, 404, 'bundle.not_found', 'No such text bundle');
      }
      const bundle = isNamespace
        ? app.texts.namespace(locale, namespace)
        : app.texts.get(locale, name as BundleName);
      return sendCacheable(request, reply, bundle.body, {
        etag: bundle.etag,
        contentType: 'application/json; charset=utf-8',
        maxAge: 300,
      });
    },
  );
}
