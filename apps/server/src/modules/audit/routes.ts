import { type AuditExportQuery, auditExportQuerySchema, auditQuerySchema } from '@cardportal/domain';
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
    handle(({ caller, body }) => service.page(caller, body), { query: auditQuerySchema }),
  );

  app.get(
    '/app/api/audit/export',
    handle<Record<string, string>, AuditExportQuery>(
      async ({ caller, request, reply, body }) => {
        const { csv, filename } = await service.exportCsv(caller, body, request.ip);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('x-content-type-options', 'nosniff')
          .send(csv);
      },
      { query: auditExportQuerySchema },
    ),
  );
}
