import { cobrandNameSchema, FOOTER_LOGO_BASE, LOGO_BASE } from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { sendCacheable } from '../../http/cache.ts';
import { sendError } from '../../http/errors.ts';

/** Co-brand calls of portal spec §7: record, locales, abbreviation lookup, logo images. */
export async function cobrandRoutes(app: FastifyInstance): Promise<void> {
  const service = app.cobrands;
  const maxAge = 900; // 15 minutes, the spec's co-brand cache

  const nameParam = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 64 } },
    required: ['name'],
  };

  app.get<{ Params: { name: string } }>(
    '/sdportal/rest/cobrand/:name',
    { schema: { params: nameParam } },
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

  app.get<{ Params: { name: string } }>(
    '/sdportal/rest/cobrands/:name/locales',
    { schema: { params: nameParam } },
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

  app.get<{ Querystring: { cobrandAbbr?: string } }>(
    '/sdportal/rest/cobrandhostabbreviation',
    async (request, reply) => {
      const abbr = request.query.cobrandAbbr;
      if (typeof abbr !== 'string' || !/^[a-z0-9]{2,8}$/i.test(abbr)) {
        return sendError(
          reply,
          400,
          'cobrandAbbr.invalid',
          'cobrandAbbr is required: 2 to 8 letters or digits',
        );
      }
      const name = await service.nameForAbbreviation(abbr.toLowerCase());
      if (!name) return sendError(reply, 404, 'cobrand.not_found', 'Unknown co-brand abbreviation');
      return sendCacheable(request, reply, name, { contentType: 'text/plain; charset=utf-8', maxAge });
    },
  );

  for (const [base, folder] of [
    [LOGO_BASE, 'logos'],
    [FOOTER_LOGO_BASE, 'footers'],
  ] as const) {
    app.get<{ Params: { file: string } }>(`${base}:file`, async (request, reply) => {
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
