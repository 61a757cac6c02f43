import {
  activeBodySchema,
  companyPatchSchema,
  LIMITS,
  newCompanyBodySchema,
  orgPointBodySchema,
} from '@cardportal/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { positionalHandler } from '../../http/app-handler.ts';
import { requireCaller } from '../../http/caller.ts';
import { sendError } from '../../http/errors.ts';
import { XLSX_CONTENT_TYPE } from '../../shared/xlsx.ts';
import { OrganisationService, OrgRequestError } from './service.ts';

type Params = { number: string; point?: string };

/**
 * Organisations (issue 7): companies and their reporting structure under /app/api/org, for a full
 * session; what each user type may do is packages/domain mayOnOrganisation, inside its scope
 * (docs/authorization.md). Every answer is no-store.
 */
export async function organisationRoutes(app: FastifyInstance): Promise<void> {
  const service = new OrganisationService(app.db);

  // The reporting-structure upload's body: the workbook's bytes, at most 4 MB.
  app.addContentTypeParser(
    XLSX_CONTENT_TYPE,
    { parseAs: 'buffer', bodyLimit: LIMITS.uploadMaxBytes },
    (_request, body, done) => done(null, body),
  );

  const callerOf = (request: FastifyRequest, reply: FastifyReply) => requireCaller(app, request, reply);

  const handle = positionalHandler<Params>(app);

  const base = '/app/api/org/companies';
  app.get<{ Params: Params; Querystring: { q?: string; page?: string } }>(
    base,
    handle(async (caller, request) => {
      const query = request.query as { q?: unknown; page?: unknown };
      return service.listCompanies(caller, {
        q: typeof query.q === 'string' ? query.q : undefined,
        page: typeof query.page === 'string' ? query.page : undefined,
      });
    }),
  );
  app.post(
    base,
    handle(
      (caller, request, body) => service.createCompany(caller, body, request.ip),
      newCompanyBodySchema,
      200,
      (body) => String(body.number ?? ''),
    ),
  );
  app.get(
    `${base}/:number`,
    handle((caller, request) => service.getCompany(caller, request.params.number)),
  );
  app.patch(
    `${base}/:number`,
    handle(
      (caller, request, body) => service.updateCompany(caller, request.params.number, body, request.ip),
      companyPatchSchema,
    ),
  );
  app.put(
    `${base}/:number/status`,
    handle(
      (caller, request, body) =>
        service.setCompanyActive(caller, request.params.number, body.active, request.ip),
      activeBodySchema,
    ),
  );
  app.delete(
    `${base}/:number`,
    handle((caller, request) => service.deleteCompany(caller, request.params.number, request.ip)),
  );

  const points = `${base}/:number/org-points`;
  app.get(
    points,
    handle((caller, request) => service.structure(caller, request.params.number)),
  );
  app.post(
    points,
    handle(
      (caller, request, body) => service.createOrgPoint(caller, request.params.number, body, request.ip),
      orgPointBodySchema,
    ),
  );
  app.get<{ Params: Params }>(`${points}.xlsx`, async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    try {
      const bytes = await service.structureWorkbook(caller, request.params.number);
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header(
          'content-disposition',
          `attachment; filename="reporting-structure-${request.params.number}.xlsx"`,
        )
        .send(Buffer.from(bytes));
    } catch (error) {
      if (error instanceof OrgRequestError) return sendError(reply, error.status, error.code, error.message);
      throw error;
    }
  });
  app.post<{ Params: Params }>(
    `${points}/upload`,
    {
      bodyLimit: LIMITS.uploadMaxBytes,
      config: {
        bodyType: XLSX_CONTENT_TYPE,
        bodyTypeRefusal: { code: 'upload.unsupportedFormat', message: 'Invalid or Unsupported File Format' },
      },
      // The catalogue's own words for a file over the limit.
      errorHandler: (error: FastifyError, _request, reply) => {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
          return sendError(reply, 413, 'upload.tooLarge', 'File size limit of 4 megabytes exceeded.');
        }
        throw error;
      },
    },
    handle(async (caller, request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw new OrgRequestError(400, 'upload.empty', 'No file was sent');
      }
      return service.upload(caller, request.params.number, body, request.ip);
    }),
  );
  app.patch(
    `${points}/:point`,
    handle(
      (caller, request, body) =>
        service.updateOrgPoint(caller, request.params.number, request.params.point ?? '', body, request.ip),
      orgPointBodySchema,
    ),
  );
  app.put(
    `${points}/:point/status`,
    handle(
      (caller, request, body) =>
        service.setOrgPointActive(
          caller,
          request.params.number,
          request.params.point ?? '',
          body.active,
          request.ip,
        ),
      activeBodySchema,
    ),
  );
  app.delete(
    `${points}/:point`,
    handle((caller, request) =>
      service.deleteOrgPoint(caller, request.params.number, request.params.point ?? '', request.ip),
    ),
  );
}
