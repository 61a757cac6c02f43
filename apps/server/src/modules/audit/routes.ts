import { auditExportQuerySchema, auditQuerySchema, resolveLocale, toFieldErrors } from '@cardportal/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireCaller } from '../../http/caller.ts';
import { sendError } from '../../http/errors.ts';
import { AuditService, AuditServiceError } from './service.ts';

/**
 * The audit trail for administrators (docs/api.md): a page of events in a date range, and the CSV
 * export of at most 30 days. Scoped: an administrator reads the events about users in its scope.
 */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const service = new AuditService(app.db);

  const callerOf = (request: FastifyRequest, reply: FastifyReply) => requireCaller(app, request, reply);
  const text = (locale: string, key: string) =>
    app.texts.text(resolveLocale(locale), 'Messages', `validation.${key}`) || key;
  const refuse = (reply: FastifyReply, locale: string, error: unknown) => {
    if (error instanceof AuditServiceError)
      return sendError(reply, error.status, error.code, text(locale, error.code), error.fieldErrors);
    throw error;
  };

  app.get('/app/api/audit', async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    const query = auditQuerySchema.safeParse(request.query ?? {});
    if (!query.success)
      return sendError(
        reply,
        400,
        'form.invalid',
        text(caller.locale, 'form.invalid'),
        toFieldErrors(query.error),
      );
    try {
      return await service.page(caller, query.data);
    } catch (error) {
      return refuse(reply, caller.locale, error);
    }
  });

  app.get('/app/api/audit/export', async (request, reply) => {
    const caller = await callerOf(request, reply);
    if (!caller) return reply;
    const query = auditExportQuerySchema.safeParse(request.query ?? {});
    if (!query.success)
      return sendError(
        reply,
        400,
        'form.invalid',
        text(caller.locale, 'form.invalid'),
        toFieldErrors(query.error),
      );
    try {
      const { csv, filename } = await service.exportCsv(caller, query.data, request.ip);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('x-content-type-options', 'nosniff')
        .send(csv);
    } catch (error) {
      return refuse(reply, caller.locale, error);
    }
  });
}
