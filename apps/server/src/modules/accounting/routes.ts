import {
  accountingCodeListSchema,
  accountingCodeParamsSchema,
  accountingCodePatchSchema,
  accountingCodeSchema,
  accountingValueListSchema,
  accountingValueParamsSchema,
  accountingValuePatchSchema,
  accountingValueQuerySchema,
  accountingValueSchema,
  companyParamsSchema,
  newAccountingCodeBodySchema,
  newAccountingValueBodySchema,
  noContentSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { appHandler } from '../../http/app-handler.ts';
import { AccountingService } from './service.ts';

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
}
