import {
  ACCOUNTING_VALUE_FILE_MEDIA_TYPE,
  accountCodingBodySchema,
  accountCodingSchema,
  accountingCodeListSchema,
  accountingCodeParamsSchema,
  accountingCodePatchSchema,
  accountingCodeSchema,
  accountingSchemeBodySchema,
  accountingSchemeListSchema,
  accountingSchemeSchema,
  accountingSubsetBodySchema,
  accountingSubsetListSchema,
  accountingSubsetSchema,
  accountingValueFileBodySchema,
  accountingValueListSchema,
  accountingValueParamsSchema,
  accountingValuePatchSchema,
  accountingValueQuerySchema,
  accountingValueSchema,
  accountingValueUploadResultSchema,
  companyParamsSchema,
  companyRecordParamsSchema,
  customFieldBodySchema,
  customFieldListSchema,
  customFieldSchema,
  fileBytesSchema,
  groupSchemeBodySchema,
  groupSchemeListSchema,
  groupSchemeSchema,
  LIMITS,
  newAccountingCodeBodySchema,
  newAccountingValueBodySchema,
  noContentSchema,
  uploadErrorSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { uploadErrorHandler } from '../../http/errors.ts';
import { CustomFieldService } from './custom-fields.ts';
import { AccountingSchemeService } from './schemes.ts';
import { AccountingService } from './service.ts';
import { AccountingValueFiles } from './values-file.ts';

/**
 * A company's accounting codes and their values under
 * /app/api/org/companies/:number/accounting-codes (issue 16 item 1, docs/accounting.md). Seen by the
 * administrators in scope, changed by the company's (Z reads only). Every answer is no-store.
 */
export async function accountingRoutes(app: FastifyInstance): Promise<void> {
  const service = new AccountingService(app.db);
  const handle = appHandler(app);
  const base = '/app/api/org/companies/:number/accounting-codes';

  app.get(
    base,
    handle(({ caller, request }) => service.listCodes(caller, request.params.number), {
      permission: 'viewAccountingCodes',
      params: companyParamsSchema,
      response: accountingCodeListSchema,
    }),
  );
  app.post(
    base,
    handle(
      ({ caller, request, body }) => service.createCode(caller, request.params.number, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyParamsSchema,
        body: newAccountingCodeBodySchema,
        status: 201,
        response: accountingCodeSchema,
      },
    ),
  );
  app.patch(
    `${base}/:id`,
    handle(
      ({ caller, request, body }) =>
        service.updateCode(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: accountingCodeParamsSchema,
        body: accountingCodePatchSchema,
        response: accountingCodeSchema,
      },
    ),
  );
  app.delete(
    `${base}/:id`,
    handle(
      ({ caller, request }) =>
        service.deleteCode(caller, request.params.number, request.params.id, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: accountingCodeParamsSchema,
        response: { 204: noContentSchema },
      },
    ),
  );

  app.get(
    `${base}/:id/values`,
    handle(
      ({ caller, request }) =>
        service.listValues(caller, request.params.number, request.params.id, {
          q: request.query.q,
          parent: request.query.parent,
          status: request.query.status,
          after: request.query.after,
          before: request.query.before,
        }),
      {
        permission: 'viewAccountingCodes',
        params: accountingCodeParamsSchema,
        query: accountingValueQuerySchema,
        response: accountingValueListSchema,
      },
    ),
  );
  app.post(
    `${base}/:id/values`,
    handle(
      ({ caller, request, body }) =>
        service.createValue(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: accountingCodeParamsSchema,
        body: newAccountingValueBodySchema,
        status: 201,
        response: accountingValueSchema,
      },
    ),
  );
  app.patch(
    `${base}/:id/values/:valueId`,
    handle(
      ({ caller, request, body }) =>
        service.updateValue(
          caller,
          request.params.number,
          request.params.id,
          request.params.valueId,
          body,
          request.ip,
        ),
      {
        permission: 'maintainAccountingCodes',
        params: accountingValueParamsSchema,
        body: accountingValuePatchSchema,
        response: accountingValueSchema,
      },
    ),
  );
  app.delete(
    `${base}/:id/values/:valueId`,
    handle(
      ({ caller, request }) =>
        service.deleteValue(
          caller,
          request.params.number,
          request.params.id,
          request.params.valueId,
          request.ip,
        ),
      {
        permission: 'maintainAccountingCodes',
        params: accountingValueParamsSchema,
        response: { 204: noContentSchema },
      },
    ),
  );

  // ---- Schemes, subsets and their assignment (issue 16 item 2) ----
  const schemes = new AccountingSchemeService(app.db);
  const company = '/app/api/org/companies/:number';

  app.get(
    `${company}/accounting-subsets`,
    handle(({ caller, request }) => schemes.listSubsets(caller, request.params.number), {
      permission: 'viewAccountingCodes',
      params: companyParamsSchema,
      response: accountingSubsetListSchema,
    }),
  );
  app.post(
    `${company}/accounting-subsets`,
    handle(
      ({ caller, request, body }) => schemes.createSubset(caller, request.params.number, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyParamsSchema,
        body: accountingSubsetBodySchema,
        status: 201,
        response: accountingSubsetSchema,
      },
    ),
  );
  app.put(
    `${company}/accounting-subsets/:id`,
    handle(
      ({ caller, request, body }) =>
        schemes.updateSubset(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyRecordParamsSchema,
        body: accountingSubsetBodySchema,
        response: accountingSubsetSchema,
      },
    ),
  );
  app.delete(
    `${company}/accounting-subsets/:id`,
    handle(
      ({ caller, request }) =>
        schemes.deleteSubset(caller, request.params.number, request.params.id, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyRecordParamsSchema,
        response: { 204: noContentSchema },
      },
    ),
  );

  app.get(
    `${company}/accounting-schemes`,
    handle(({ caller, request }) => schemes.listSchemes(caller, request.params.number), {
      permission: 'viewAccountingCodes',
      params: companyParamsSchema,
      response: accountingSchemeListSchema,
    }),
  );
  app.post(
    `${company}/accounting-schemes`,
    handle(
      ({ caller, request, body }) => schemes.createScheme(caller, request.params.number, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyParamsSchema,
        body: accountingSchemeBodySchema,
        status: 201,
        response: accountingSchemeSchema,
      },
    ),
  );
  app.put(
    `${company}/accounting-schemes/:id`,
    handle(
      ({ caller, request, body }) =>
        schemes.updateScheme(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyRecordParamsSchema,
        body: accountingSchemeBodySchema,
        response: accountingSchemeSchema,
      },
    ),
  );
  app.delete(
    `${company}/accounting-schemes/:id`,
    handle(
      ({ caller, request }) =>
        schemes.deleteScheme(caller, request.params.number, request.params.id, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyRecordParamsSchema,
        response: { 204: noContentSchema },
      },
    ),
  );

  app.get(
    `${company}/accounting-groups`,
    handle(({ caller, request }) => schemes.listGroups(caller, request.params.number), {
      permission: 'viewAccountingCodes',
      params: companyParamsSchema,
      response: groupSchemeListSchema,
    }),
  );
  app.put(
    `${company}/accounting-groups/:id`,
    handle(
      ({ caller, request, body }) =>
        schemes.setGroupScheme(caller, request.params.number, request.params.id, body.schemeId, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyRecordParamsSchema,
        body: groupSchemeBodySchema,
        response: groupSchemeSchema,
      },
    ),
  );

  app.get(
    `${company}/accounts/:id/coding`,
    handle(({ caller, request }) => schemes.accountCoding(caller, request.params.number, request.params.id), {
      permission: 'viewAccountingCodes',
      params: companyRecordParamsSchema,
      response: accountCodingSchema,
    }),
  );
  app.put(
    `${company}/accounts/:id/coding`,
    handle(
      ({ caller, request, body }) =>
        schemes.setAccountCoding(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyRecordParamsSchema,
        body: accountCodingBodySchema,
        response: accountCodingSchema,
      },
    ),
  );

  // ---- The values as a file (issue 16 item 5) ----
  const files = new AccountingValueFiles(app.db);
  // The upload's body: the file's bytes (CSV or .xlsx, told by content), at most 4 MB.
  app.addContentTypeParser(
    ACCOUNTING_VALUE_FILE_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit: LIMITS.uploadMaxBytes },
    (_request, body, done) => done(null, body),
  );
  for (const format of ['csv', 'xlsx'] as const)
    app.get(
      `${base}/:id/values.${format}`,
      handle(
        async ({ caller, request, reply }) => {
          const file = await files.download(caller, request.params.number, request.params.id, format);
          return reply
            .header('cache-control', 'no-store')
            .header('content-disposition', `attachment; filename="${file.fileName}"`)
            .header('x-content-type-options', 'nosniff')
            .type(file.mediaType)
            .send(file.body);
        },
        {
          permission: 'viewAccountingCodes',
          params: accountingCodeParamsSchema,
          response: {
            200: {
              description: `Every value of the code in the upload's columns (${format}), formula-injection safe`,
              content: {
                [format === 'csv'
                  ? 'text/csv'
                  : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']: {
                  schema: fileBytesSchema,
                },
              },
            },
          },
        },
      ),
    );
  app.post(
    `${base}/:id/values/upload`,
    handle(
      ({ caller, request, body }) =>
        files.upload(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: accountingCodeParamsSchema,
        body: accountingValueFileBodySchema,
        response: accountingValueUploadResultSchema,
        refusal: uploadErrorSchema,
        invalid: () => new AppError('invalid', 'upload.empty', { message: 'No file was sent' }),
        docs: { consumes: [ACCOUNTING_VALUE_FILE_MEDIA_TYPE] },
        route: {
          bodyLimit: LIMITS.uploadMaxBytes,
          config: {
            bodyType: ACCOUNTING_VALUE_FILE_MEDIA_TYPE,
            bodyTypeRefusal: {
              code: 'upload.unsupportedFormat',
              message: 'Invalid or Unsupported File Format',
            },
          },
          // The catalogue's own words for a file over the limit or of a type no parser takes.
          // The catalogue's own words for a file over the limit or of a type no parser takes.
          errorHandler: uploadErrorHandler,
        },
      },
    ),
  );

  // ---- Custom data fields (issue 16 item 4) ----
  const customFields = new CustomFieldService(app.db);
  app.get(
    `${company}/custom-fields`,
    handle(({ caller, request }) => customFields.list(caller, request.params.number), {
      permission: 'viewAccountingCodes',
      params: companyParamsSchema,
      response: customFieldListSchema,
    }),
  );
  app.post(
    `${company}/custom-fields`,
    handle(
      ({ caller, request, body }) => customFields.create(caller, request.params.number, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyParamsSchema,
        body: customFieldBodySchema,
        status: 201,
        response: customFieldSchema,
      },
    ),
  );
  app.put(
    `${company}/custom-fields/:id`,
    handle(
      ({ caller, request, body }) =>
        customFields.update(caller, request.params.number, request.params.id, body, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyRecordParamsSchema,
        body: customFieldBodySchema,
        response: customFieldSchema,
      },
    ),
  );
  app.delete(
    `${company}/custom-fields/:id`,
    handle(
      ({ caller, request }) =>
        customFields.delete(caller, request.params.number, request.params.id, request.ip),
      {
        permission: 'maintainAccountingCodes',
        params: companyRecordParamsSchema,
        response: { 204: noContentSchema },
      },
    ),
  );
}
