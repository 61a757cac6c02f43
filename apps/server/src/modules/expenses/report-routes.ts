import {
  companyParamsSchema,
  EXPENSE_REPORT_LIMITS,
  expenseLineBodySchema,
  expenseLineParamsSchema,
  expenseQueueQuerySchema,
  expenseReportBodySchema,
  expenseReportDetailSchema,
  expenseReportListSchema,
  expenseReportQuerySchema,
  expenseTransactionListSchema,
  newExpenseReportBodySchema,
  noBodySchema,
  noContentSchema,
  recordParamsSchema,
  rerouteBodySchema,
  sendBackBodySchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { appHandler } from '../../http/app-handler.ts';
import { uploadErrorHandler } from '../../http/errors.ts';
import type { ExpenseReportService } from './reports.ts';

/** A receipt's bytes: the type is decided by content (kernel/files.ts), so the body is sent as octet-stream. */
const RECEIPT_MEDIA_TYPE = 'application/octet-stream';
const receiptBodySchema = z
  .custom<Uint8Array>((body) => body instanceof Uint8Array && body.length > 0, { error: 'receipt.empty' })
  .meta({
    type: 'string',
    contentMediaType: RECEIPT_MEDIA_TYPE,
    description: 'The receipt: JPEG, PNG or PDF, at most 4 MB',
  });
const receiptQuerySchema = z.object({
  name: z.string().max(1024).optional().catch(undefined).describe("The receipt's file name, as shown"),
});
const fileBytesSchema = z.string().meta({ format: 'binary' });

/**
 * Expense reports' routes (issue 17 items 2–4, docs/expenses.md): the cardholder's own under
 * /app/api/my/expense-reports, one report under /app/api/expense-reports/:id (its lines, receipts and
 * workflow), the approver's queue, a company's reports for its administrators.
 */
export function expenseReportRoutes(app: FastifyInstance, service: ExpenseReportService): void {
  const handle = appHandler(app);
  const one = '/app/api/expense-reports/:id';

  app.addContentTypeParser(
    RECEIPT_MEDIA_TYPE,
    { parseAs: 'buffer', bodyLimit: EXPENSE_REPORT_LIMITS.receiptMaxBytes },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/app/api/my/expense-reports',
    handle(({ caller, query }) => service.mine(caller, query), {
      permission: 'createExpenseReports',
      query: expenseReportQuerySchema,
      response: expenseReportListSchema,
    }),
  );
  app.post(
    '/app/api/my/expense-reports',
    handle(({ caller, request, body }) => service.create(caller, body, request.ip), {
      permission: 'createExpenseReports',
      body: newExpenseReportBodySchema,
      status: 201,
      response: expenseReportDetailSchema,
    }),
  );
  app.get(
    '/app/api/my/expense-transactions',
    handle(({ caller, query }) => service.openTransactions(caller, query), {
      permission: 'createExpenseReports',
      query: expenseQueueQuerySchema,
      response: expenseTransactionListSchema,
    }),
  );
  app.get(
    '/app/api/expense-approvals',
    handle(({ caller, query }) => service.queue(caller, query), {
      permission: 'viewExpenseReports',
      query: expenseQueueQuerySchema,
      response: expenseReportListSchema,
    }),
  );
  app.get(
    '/app/api/org/companies/:number/expense-reports',
    handle(({ caller, request, query }) => service.ofCompany(caller, request.params.number, query), {
      permission: 'viewCompanyExpenseReports',
      params: companyParamsSchema,
      query: expenseReportQuerySchema,
      response: expenseReportListSchema,
    }),
  );

  app.get(
    one,
    handle(({ caller, request }) => service.get(caller, request.params.id), {
      permission: 'viewExpenseReports',
      params: recordParamsSchema,
      response: expenseReportDetailSchema,
    }),
  );
  app.put(
    one,
    handle(({ caller, request, body }) => service.rename(caller, request.params.id, body, request.ip), {
      permission: 'createExpenseReports',
      params: recordParamsSchema,
      body: expenseReportBodySchema,
      response: expenseReportDetailSchema,
    }),
  );
  app.delete(
    one,
    handle(({ caller, request }) => service.remove(caller, request.params.id, request.ip), {
      permission: 'createExpenseReports',
      params: recordParamsSchema,
      response: { 204: noContentSchema },
    }),
  );
  app.post(
    `${one}/lines`,
    handle(({ caller, request, body }) => service.addLine(caller, request.params.id, body, request.ip), {
      permission: 'createExpenseReports',
      params: recordParamsSchema,
      body: expenseLineBodySchema,
      status: 201,
      response: expenseReportDetailSchema,
    }),
  );
  app.put(
    `${one}/lines/:line`,
    handle(
      ({ caller, request, body }) =>
        service.changeLine(caller, request.params.id, request.params.line, body, request.ip),
      {
        permission: 'createExpenseReports',
        params: expenseLineParamsSchema,
        body: expenseLineBodySchema,
        response: expenseReportDetailSchema,
      },
    ),
  );
  app.delete(
    `${one}/lines/:line`,
    handle(
      ({ caller, request }) => service.removeLine(caller, request.params.id, request.params.line, request.ip),
      {
        permission: 'createExpenseReports',
        params: expenseLineParamsSchema,
        response: expenseReportDetailSchema,
      },
    ),
  );
  app.put(
    `${one}/lines/:line/receipt`,
    handle(
      ({ caller, request, body, query }) =>
        service.attachReceipt(caller, request.params.id, request.params.line, body, query.name, request.ip),
      {
        permission: 'createExpenseReports',
        params: expenseLineParamsSchema,
        query: receiptQuerySchema,
        body: receiptBodySchema,
        response: expenseReportDetailSchema,
        invalid: () => new AppError('invalid', 'receipt.empty', { message: 'No file was sent' }),
        docs: { consumes: [RECEIPT_MEDIA_TYPE] },
        route: {
          bodyLimit: EXPENSE_REPORT_LIMITS.receiptMaxBytes,
          config: {
            bodyType: RECEIPT_MEDIA_TYPE,
            bodyTypeRefusal: {
              code: 'upload.unsupportedFormat',
              message: 'Invalid or Unsupported File Format',
            },
          },
          // The catalogue's own words for a file over the limit or of a type no parser takes.
          errorHandler: uploadErrorHandler,
        },
      },
    ),
  );
  app.get(
    `${one}/lines/:line/receipt`,
    handle(
      async ({ caller, request, reply }) => {
        const file = await service.receipt(caller, request.params.id, request.params.line);
        // Inline (the screen shows it), its type from its content, never sniffed, never scripted.
        return reply
          .type(file.mediaType)
          .header('content-disposition', `inline; filename="${file.name.replace(/[^\x20-\x7e]|"/g, '_')}"`)
          .header('x-content-type-options', 'nosniff')
          .header(
            'content-security-policy',
            // A sandbox for images; Chromium's PDF viewer does not open in a sandboxed document.
            file.mediaType === 'application/pdf'
              ? "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
              : "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
          )
          .send(Buffer.from(file.bytes));
      },
      {
        permission: 'viewExpenseReports',
        params: expenseLineParamsSchema,
        response: {
          200: {
            description: 'The receipt, inline, as JPEG, PNG or PDF',
            content: {
              'image/jpeg': { schema: fileBytesSchema },
              'image/png': { schema: fileBytesSchema },
              'application/pdf': { schema: fileBytesSchema },
            },
          },
        },
      },
    ),
  );
  app.delete(
    `${one}/lines/:line/receipt`,
    handle(
      ({ caller, request }) =>
        service.removeReceipt(caller, request.params.id, request.params.line, request.ip),
      {
        permission: 'createExpenseReports',
        params: expenseLineParamsSchema,
        response: expenseReportDetailSchema,
      },
    ),
  );

  app.post(
    `${one}/submit`,
    handle(({ caller, request }) => service.submit(caller, request.params.id, request.ip), {
      permission: 'submitExpenseReports',
      params: recordParamsSchema,
      body: noBodySchema,
      response: expenseReportDetailSchema,
    }),
  );
  app.post(
    `${one}/approve`,
    handle(({ caller, request }) => service.approve(caller, request.params.id, request.ip), {
      permission: 'approveExpenseReports',
      params: recordParamsSchema,
      body: noBodySchema,
      response: expenseReportDetailSchema,
    }),
  );
  app.post(
    `${one}/send-back`,
    handle(({ caller, request, body }) => service.sendBack(caller, request.params.id, body, request.ip), {
      permission: 'approveExpenseReports',
      params: recordParamsSchema,
      body: sendBackBodySchema,
      response: expenseReportDetailSchema,
    }),
  );
  app.post(
    `${one}/reroute`,
    handle(({ caller, request, body }) => service.reroute(caller, request.params.id, body, request.ip), {
      permission: 'rerouteExpenseReports',
      params: recordParamsSchema,
      body: rerouteBodySchema,
      response: expenseReportDetailSchema,
    }),
  );
}
