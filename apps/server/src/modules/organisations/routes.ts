import {
  activeBodySchema,
  companyExportQuerySchema,
  companyListSchema,
  companyParamsSchema,
  companyPatchSchema,
  companySearchQuerySchema,
  companySummarySchema,
  fileBytesSchema,
  LIMITS,
  newCompanyBodySchema,
  noContentSchema,
  orgPointBodySchema,
  orgPointParamsSchema,
  reportingStructureSchema,
  uploadErrorSchema,
  uploadResultSchema,
  workbookBodySchema,
  XLSX_MEDIA_TYPE,
} from '@cardportal/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { csvAnswer, sendCsv } from '../../http/csv.ts';
import { sendError } from '../../http/errors.ts';
import { XLSX_CONTENT_TYPE } from '../../kernel/xlsx.ts';
import { OrganisationService } from './service.ts';

/**
 * Organisations (issue 7): companies and their reporting structure under /app/api/org, for a full
 * session; what each user type may do is the action its contract declares (packages/domain authorization.ts), inside its scope
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

  const handle = appHandler(app);

  const base = '/app/api/org/companies';
  app.get(
    base,
    handle(({ caller, request }) => service.listCompanies(caller, request.query), {
      permission: 'viewCompanies',
      query: companySearchQuerySchema,
      response: companyListSchema,
    }),
  );
  // Every match of the search as CSV (a sibling path: no company number holds a dot).
  app.get(
    `${base}.csv`,
    handle(
      async ({ caller, reply, request }) =>
        sendCsv(reply, await service.exportCompanies(caller, request.query)),
      {
        permission: 'viewCompanies',
        query: companyExportQuerySchema,
        response: csvAnswer('The matching companies as CSV (attachment), formula-injection safe'),
      },
    ),
  );
  app.post(
    base,
    handle(({ caller, request, body }) => service.createCompany(caller, body, request.ip), {
      permission: 'createCompany',
      body: newCompanyBodySchema,
      response: companySummarySchema,
      uniqueKey: (body) => String(body.number ?? ''),
    }),
  );
  app.get(
    `${base}/:number`,
    handle(({ caller, request }) => service.getCompany(caller, request.params.number), {
      permission: 'viewCompanies',
      params: companyParamsSchema,
      response: companySummarySchema,
    }),
  );
  app.patch(
    `${base}/:number`,
    handle(
      ({ caller, request, body }) => service.updateCompany(caller, request.params.number, body, request.ip),
      {
        permission: 'modifyCompany',
        params: companyParamsSchema,
        body: companyPatchSchema,
        response: companySummarySchema,
      },
    ),
  );
  app.put(
    `${base}/:number/status`,
    handle(
      ({ caller, request, body }) =>
        service.setCompanyActive(caller, request.params.number, body.active, request.ip),
      {
        permission: 'deleteCompany',
        params: companyParamsSchema,
        body: activeBodySchema,
        response: companySummarySchema,
      },
    ),
  );
  app.delete(
    `${base}/:number`,
    handle(({ caller, request }) => service.deleteCompany(caller, request.params.number, request.ip), {
      permission: 'deleteCompany',
      params: companyParamsSchema,
      response: { 204: noContentSchema },
    }),
  );

  const points = `${base}/:number/org-points`;
  app.get(
    points,
    handle(({ caller, request }) => service.structure(caller, request.params.number), {
      permission: 'viewStructure',
      params: companyParamsSchema,
      response: reportingStructureSchema,
    }),
  );
  app.post(
    points,
    handle(
      ({ caller, request, body }) => service.createOrgPoint(caller, request.params.number, body, request.ip),
      {
        permission: 'modifyStructure',
        params: companyParamsSchema,
        body: orgPointBodySchema,
        response: reportingStructureSchema,
      },
    ),
  );
  app.get(
    `${points}.xlsx`,
    handle(
      async ({ caller, request, reply }) => {
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
          // The service's own sentence (not the catalogue's text), as this download always answered.
          if (error instanceof AppError) return sendError(reply, error.status, error.code, error.message);
          throw error;
        }
      },
      {
        permission: 'viewStructure',
        params: companyParamsSchema,
        response: {
          200: {
            description: 'The reporting structure as a workbook (the upload format)',
            content: { [XLSX_MEDIA_TYPE]: { schema: fileBytesSchema } },
          },
        },
      },
    ),
  );
  app.post(
    `${points}/upload`,
    handle(({ caller, request, body }) => service.upload(caller, request.params.number, body, request.ip), {
      permission: 'modifyStructure',
      params: companyParamsSchema,
      body: workbookBodySchema,
      response: uploadResultSchema,
      refusal: uploadErrorSchema,
      invalid: () => new AppError('invalid', 'upload.empty', { message: 'No file was sent' }),
      docs: { consumes: [XLSX_MEDIA_TYPE] },
      route: {
        bodyLimit: LIMITS.uploadMaxBytes,
        config: {
          bodyType: XLSX_CONTENT_TYPE,
          bodyTypeRefusal: {
            code: 'upload.unsupportedFormat',
            message: 'Invalid or Unsupported File Format',
          },
        },
        // The catalogue's own words for a file over the limit.
        errorHandler: (error: FastifyError, _request, reply) => {
          if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
            return sendError(reply, 413, 'upload.tooLarge', 'File size limit of 4 megabytes exceeded.');
          }
          throw error;
        },
      },
    }),
  );
  app.patch(
    `${points}/:point`,
    handle(
      ({ caller, request, body }) =>
        service.updateOrgPoint(caller, request.params.number, request.params.point, body, request.ip),
      {
        permission: 'modifyStructure',
        params: orgPointParamsSchema,
        body: orgPointBodySchema,
        response: reportingStructureSchema,
      },
    ),
  );
  app.put(
    `${points}/:point/status`,
    handle(
      ({ caller, request, body }) =>
        service.setOrgPointActive(
          caller,
          request.params.number,
          request.params.point,
          body.active,
          request.ip,
        ),
      {
        permission: 'modifyStructure',
        params: orgPointParamsSchema,
        body: activeBodySchema,
        response: reportingStructureSchema,
      },
    ),
  );
  app.delete(
    `${points}/:point`,
    handle(
      ({ caller, request }) =>
        service.deleteOrgPoint(caller, request.params.number, request.params.point, request.ip),
      { permission: 'modifyStructure', params: orgPointParamsSchema, response: { 204: noContentSchema } },
    ),
  );
}
