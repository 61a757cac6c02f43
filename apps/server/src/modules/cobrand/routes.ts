import {
  apiErrorSchema,
  cobrandAbbrQuerySchema,
  cobrandLocalesSchema,
  cobrandNameParamsSchema,
  cobrandNameSchema,
  cobrandRecordSchema,
  emptyObjectSchema,
  FOOTER_LOGO_BASE,
  fileBytesSchema,
  fileParamsSchema,
  LOGO_BASE,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendCacheable } from '../../http/cache.ts';
import { answerOf, emptyAnswer } from '../../http/contract.ts';
import { sendError } from '../../http/errors.ts';

/** Co-brand calls of portal spec §7: record, locales, abbreviation lookup, logo images. */
export async function cobrandRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const service = app.cobrands;
  const maxAge = 900; // 15 minutes, the spec's co-brand cache

  // The bodies are kept serialised (with their ETags): the schemas describe them.
  const notModified = emptyAnswer('Not modified (ETag / If-None-Match)');
  const unknown = apiErrorSchema.describe('Unknown co-brand (cobrand.not_found)');

  app.get(
    '/sdportal/rest/cobrand/:name',
    {
      schema: {
        params: cobrandNameParamsSchema,
        querystring: emptyObjectSchema,
        response: { 200: cobrandRecordSchema, 304: notModified, 404: unknown },
      },
    },
    async (request, reply) => {
      const parsed = cobrandNameSchema.safeParse(request.params.name);
      const found = parsed.success ? await service.get(parsed.data) : null;
      if (!found)
        return sendError(
          reply,
          404,
          'cobrand.not_found',
          `Unknown co-brand: ${parsed.success ? parsed.data : 'invalid name'}`,
        );
      return sendCacheable(request, reply, found.body, {
        etag: found.etag,
        contentType: 'application/json; charset=utf-8',
        maxAge,
      });
    },
  );

  app.get(
    '/sdportal/rest/cobrands/:name/locales',
    {
      schema: {
        params: cobrandNameParamsSchema,
        querystring: emptyObjectSchema,
        response: { 200: cobrandLocalesSchema, 304: notModified, 404: unknown },
      },
    },
    async (request, reply) => {
      const parsed = cobrandNameSchema.safeParse(request.params.name);
      const found = parsed.success ? await service.get(parsed.data) : null;
      if (!found) return sendError(reply, 404, 'cobrand.not_found', 'Unknown co-brand');
      return sendCacheable(request, reply, found.localesBody, {
        etag: found.localesEtag,
        contentType: 'application/json; charset=utf-8',
        maxAge,
      });
    },
  );

  app.get(
    '/sdportal/rest/cobrandhostabbreviation',
    {
      schema: {
        querystring: cobrandAbbrQuerySchema,
        response: {
          200: answerOf('The co-brand name', 'text/plain'),
          304: notModified,
          '4xx': apiErrorSchema.describe('Missing or invalid abbreviation (400), unknown (404)'),
        },
      },
      config: {
        invalid: (_error, _request, reply) =>
          sendError(reply, 400, 'cobrandAbbr.invalid', 'cobrandAbbr is required: 2 to 8 letters or digits'),
      },
    },
    async (request, reply) => {
      const name = await service.nameForAbbreviation(request.query.cobrandAbbr);
      if (!name) return sendError(reply, 404, 'cobrand.not_found', 'Unknown co-brand abbreviation');
      return sendCacheable(request, reply, name, { contentType: 'text/plain; charset=utf-8', maxAge });
    },
  );

  for (const [base, folder] of [
    [LOGO_BASE, 'logos'],
    [FOOTER_LOGO_BASE, 'footers'],
  ] as const) {
    const image = {
      params: fileParamsSchema,
      querystring: emptyObjectSchema,
      response: {
        200: answerOf('The image (png, jpg or gif)', 'image/*', fileBytesSchema),
        304: notModified,
        404: apiErrorSchema.describe('No such image'),
      },
    };
    app.get(`${base}:file`, { schema: image }, async (request, reply) => {
      const file = request.params.file;
      if (!/^[a-z0-9][a-z0-9-]{0,39}\.(png|jpg|gif)$/.test(file)) {
        return sendError(reply, 404, 'asset.not_found', 'No such image');
      }
      const asset = await service.asset(`${folder}/${file}`);
      if (!asset) return sendError(reply, 404, 'asset.not_found', 'No such image');
      return sendCacheable(request, reply, asset.bytes, {
        etag: asset.etag,
        contentType: asset.contentType,
        maxAge: 86_400,
      });
    });
  }
}
