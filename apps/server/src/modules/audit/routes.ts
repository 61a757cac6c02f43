import {
  auditExportQuerySchema,
  auditPageSchema,
  auditQuerySchema,
  fileBytesSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { appHandler } from '../../http/app-handler.ts';
import { AuditService } from './service.ts';

/**
 * The audit trail for administrators (docs/api.md): a page of events in a date range, and the CSV
 * export of at most 30 days. Scoped: an administrator reads the events about users in its scope.
 */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const service = new AuditService(app.db);
  const handle = appHandler(app);

  app.get(
    '/app/api/audit',
    handle(({ caller, query }) => service.page(caller, query), {
      permission: 'viewAudit',
      query: auditQuerySchema,
      response: auditPageSchema,
    }),
  );

  app.get(
    '/app/api/audit/export',
    handle(
      async ({ caller, request, reply, query }) => {
        const { csv, filename } = await service.exportCsv(caller, query, request.ip);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('x-content-type-options', 'nosniff')
          .send(csv);
      },
      {
        permission: 'viewAudit',
        query: auditExportQuerySchema,
        response: {
          200: {
            description: 'The rows as CSV (attachment), formula-injection safe',
            content: { 'text/csv': { schema: fileBytesSchema } },
          },
        },
      },
    ),
  );
}
