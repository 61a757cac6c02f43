import {
  allocationBodySchema,
  disputeBodySchema,
  fileBytesSchema,
  issuerCodeListSchema,
  LIMITS,
  massAllocationBodySchema,
  massAllocationListSchema,
  massAllocationQuerySchema,
  massAllocationRefusalSchema,
  massAllocationSchema,
  noBodySchema,
  offeredValuesQuerySchema,
  offeredValuesSchema,
  recordParamsSchema,
  spendQuerySchema,
  spendSummarySchema,
  splitBodySchema,
  TRANSACTION_FILE_MEDIA_TYPE,
  TRANSACTION_STEP_NAMES,
  TRANSACTION_STEPS,
  transactionAllocationSchema,
  transactionCustomFieldsSchema,
  transactionCustomValuesBodySchema,
  transactionDetailSchema,
  transactionExportBodySchema,
  transactionExportListQuerySchema,
  transactionExportListSchema,
  transactionExportSchema,
  transactionFileBodySchema,
  transactionImportErrorSchema,
  transactionImportQuerySchema,
  transactionImportResultSchema,
  transactionListSchema,
  transactionQuerySchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { uploadErrorHandler } from '../../http/errors.ts';
import { AllocationService } from './allocation.ts';
import { CustomValueService } from './custom-values.ts';
import { TransactionExportService } from './export.ts';
import { TransactionService } from './service.ts';

/**
 * The Transaction Summary under /app/api/transactions (docs/transactions.md, docs/api.md): the list
 * with its filters and the detail of one, every user type within its scope. No-store, like every
 * application answer.
 */
export async function transactionRoutes(app: FastifyInstance): Promise<void> {
  const service = new TransactionService(
    app.db,
    { database: app.database, vault: () => app.secrets.cards },
    { texts: app, kick: () => app.mailWorker.kick() },
  );
  const exports = new TransactionExportService(app.db);
  const handle = appHandler(app);

  // The upload's body: the file's bytes, at most 4 MB (the CLI takes files of any size).
  app.addContentTypeParser(
    TRANSACTION_FILE_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit: LIMITS.uploadMaxBytes },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/app/api/transactions/import',
    handle(({ caller, request, body }) => service.importFile(caller, body, request.query, request.ip), {
      permission: 'importTransactions',
      query: transactionImportQuerySchema,
      body: transactionFileBodySchema,
      response: transactionImportResultSchema,
      refusal: transactionImportErrorSchema,
      invalid: () => new AppError('invalid', 'upload.empty', { message: 'No file was sent' }),
      docs: { consumes: [TRANSACTION_FILE_MEDIA_TYPE] },
      route: {
        bodyLimit: LIMITS.uploadMaxBytes,
        config: {
          bodyType: TRANSACTION_FILE_MEDIA_TYPE,
          bodyTypeRefusal: {
            code: 'upload.unsupportedFormat',
            message: 'Invalid or Unsupported File Format',
          },
        },
        // The catalogue's own words for a file over the limit or of a type no parser takes.
        errorHandler: uploadErrorHandler,
      },
    }),
  );

  app.get(
    '/app/api/transactions',
    handle(({ caller, request }) => service.list(caller, request.query), {
      permission: 'viewTransactions',
      query: transactionQuerySchema,
      response: transactionListSchema,
    }),
  );
  app.get(
    '/app/api/transactions/spend',
    handle(({ caller, request }) => service.spend(caller, request.query.currency), {
      permission: 'viewTransactions',
      query: spendQuerySchema,
      response: spendSummarySchema,
    }),
  );
  // General-ledger exports (before /:id, which would take "exports" as an id).
  app.post(
    '/app/api/transactions/exports',
    handle(({ caller, request, body }) => exports.create(caller, body, request.ip), {
      permission: 'exportTransactions',
      body: transactionExportBodySchema,
      response: transactionExportSchema,
    }),
  );
  app.get(
    '/app/api/transactions/exports',
    handle(
      ({ caller, request }) =>
        exports.list(caller, { after: request.query.after, before: request.query.before }),
      {
        permission: 'exportTransactions',
        query: transactionExportListQuerySchema,
        response: transactionExportListSchema,
      },
    ),
  );
  app.get(
    '/app/api/transactions/exports/:id/file',
    handle(
      async ({ caller, request, reply }) => {
        const file = await exports.file(caller, request.params.id);
        return reply
          .type(file.mediaType)
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .send(file.body);
      },
      {
        permission: 'exportTransactions',
        params: recordParamsSchema,
        response: {
          200: {
            description: 'The export as CSV or .xlsx (attachment), written as it is sent',
            content: {
              'text/csv': { schema: fileBytesSchema },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: fileBytesSchema,
              },
            },
          },
        },
      },
    ),
  );

  app.get(
    '/app/api/transactions/:id',
    handle(({ caller, request }) => service.get(caller, request.params.id), {
      permission: 'viewTransactions',
      params: recordParamsSchema,
      response: transactionDetailSchema,
    }),
  );
  // Review, approve, lock: each step its own action of the policy (type and role permission).
  for (const step of TRANSACTION_STEP_NAMES) {
    app.post(
      `/app/api/transactions/:id/${step}`,
      handle(({ caller, request }) => service.step(caller, request.params.id, step, request.ip), {
        permission: TRANSACTION_STEPS[step].action,
        params: recordParamsSchema,
        body: noBodySchema,
        response: transactionDetailSchema,
      }),
    );
  }

  app.post(
    '/app/api/transactions/:id/split',
    handle(({ caller, request, body }) => service.split(caller, request.params.id, body, request.ip), {
      permission: 'splitTransactions',
      params: recordParamsSchema,
      body: splitBodySchema,
      response: transactionDetailSchema,
    }),
  );
  app.post(
    '/app/api/transactions/:id/unsplit',
    handle(({ caller, request }) => service.unsplit(caller, request.params.id, request.ip), {
      permission: 'splitTransactions',
      params: recordParamsSchema,
      body: noBodySchema,
      response: transactionDetailSchema,
    }),
  );
  app.get(
    '/app/api/transactions/:id/dispute-reasons',
    handle(({ caller, request }) => service.disputeReasons(caller, request.params.id), {
      permission: 'disputeTransactions',
      params: recordParamsSchema,
      response: issuerCodeListSchema,
    }),
  );
  app.post(
    '/app/api/transactions/:id/dispute',
    handle(({ caller, request, body }) => service.dispute(caller, request.params.id, body, request.ip), {
      permission: 'disputeTransactions',
      params: recordParamsSchema,
      body: disputeBodySchema,
      response: transactionDetailSchema,
    }),
  );

  // ---- Cost allocation and mass allocation (issue 16 item 3, docs/accounting.md) ----
  const allocation = new AllocationService(app.db);
  app.get(
    '/app/api/transactions/mass-allocations',
    handle(({ caller, request }) => allocation.listMass(caller, request.query.company), {
      permission: 'massAllocateTransactions',
      query: massAllocationQuerySchema,
      response: massAllocationListSchema,
    }),
  );
  app.post(
    '/app/api/transactions/mass-allocations',
    handle(({ caller, request, body }) => allocation.mass(caller, body, request.ip), {
      permission: 'massAllocateTransactions',
      body: massAllocationBodySchema,
      // 10,000 transaction ids fit (about 170 KB); more is refused by the schema, not the size.
      route: { bodyLimit: 1024 * 1024 },
      status: 201,
      response: massAllocationSchema,
      refusal: massAllocationRefusalSchema,
    }),
  );
  app.post(
    '/app/api/transactions/mass-allocations/:id/undo',
    handle(({ caller, request }) => allocation.undo(caller, request.params.id, request.ip), {
      permission: 'massAllocateTransactions',
      params: recordParamsSchema,
      body: noBodySchema,
      response: massAllocationSchema,
      refusal: massAllocationRefusalSchema,
    }),
  );
  app.get(
    '/app/api/transactions/:id/allocation',
    handle(({ caller, request }) => allocation.get(caller, request.params.id), {
      permission: 'viewTransactions',
      params: recordParamsSchema,
      response: transactionAllocationSchema,
    }),
  );
  app.put(
    '/app/api/transactions/:id/allocation',
    handle(({ caller, request, body }) => allocation.set(caller, request.params.id, body, request.ip), {
      permission: 'allocateTransactions',
      params: recordParamsSchema,
      body: allocationBodySchema,
      response: transactionAllocationSchema,
    }),
  );
  app.get(
    '/app/api/transactions/:id/allocation/values',
    handle(({ caller, request }) => allocation.offered(caller, request.params.id, request.query), {
      permission: 'viewTransactions',
      params: recordParamsSchema,
      query: offeredValuesQuerySchema,
      response: offeredValuesSchema,
    }),
  );

  // ---- Custom data fields on a transaction (issue 16 item 4) ----
  const customValues = new CustomValueService(app.db);
  app.get(
    '/app/api/transactions/:id/custom-fields',
    handle(({ caller, request }) => customValues.get(caller, request.params.id), {
      permission: 'viewTransactions',
      params: recordParamsSchema,
      response: transactionCustomFieldsSchema,
    }),
  );
  app.put(
    '/app/api/transactions/:id/custom-fields',
    handle(({ caller, request, body }) => customValues.set(caller, request.params.id, body, request.ip), {
      permission: 'allocateTransactions',
      params: recordParamsSchema,
      body: transactionCustomValuesBodySchema,
      response: transactionCustomFieldsSchema,
    }),
  );
}
