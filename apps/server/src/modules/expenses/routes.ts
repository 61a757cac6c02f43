import {
  approvalProfileBodySchema,
  approvalProfileSchema,
  approvalThresholdBodySchema,
  approvalThresholdSchema,
  companyParamsSchema,
  companyRecordParamsSchema,
  expensePolicyBodySchema,
  expensePolicySchema,
  expenseSettingsSchema,
  expenseTypeBodySchema,
  expenseTypeSchema,
  mileageRateBodySchema,
  mileageRateSchema,
  noContentSchema,
  taxRateBodySchema,
  taxRateSchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import { appHandler } from '../../http/app-handler.ts';
import { expenseReportRoutes } from './report-routes.ts';
import { ExpenseReportService } from './reports.ts';
import { ExpenseSettingsService } from './settings.ts';

/**
 * A company's expense configuration under /app/api/org/companies/:number/expense-settings (issue 17
 * item 1, docs/expenses.md): one answer with all of it, and create, change and delete per part. Seen by
 * the administrators in scope, changed by the company's (the system administrator reads only).
 */
export async function expenseRoutes(app: FastifyInstance): Promise<void> {
  const reports = new ExpenseReportService(app.db, { texts: app, kick: () => app.mailWorker.kick() });
  const service = new ExpenseSettingsService(app.db, reports);
  expenseReportRoutes(app, reports);
  const handle = appHandler(app);
  const base = '/app/api/org/companies/:number/expense-settings';
  const view = 'viewExpenseSettings' as const;
  const maintain = 'maintainExpenseSettings' as const;

  app.get(
    base,
    handle(({ caller, request }) => service.get(caller, request.params.number), {
      permission: view,
      params: companyParamsSchema,
      response: expenseSettingsSchema,
    }),
  );
  app.put(
    `${base}/policy`,
    handle(
      ({ caller, request, body }) => service.savePolicy(caller, request.params.number, body, request.ip),
      {
        permission: maintain,
        params: companyParamsSchema,
        body: expensePolicyBodySchema,
        response: expensePolicySchema,
      },
    ),
  );

  /** Create (POST base/part), change (PUT base/part/:id) and delete (DELETE base/part/:id) of one part. */
  function records<B extends ZodType, R extends ZodType>(
    part: string,
    body: B,
    response: R,
    save: (
      caller: Parameters<ExpenseSettingsService['get']>[0],
      number: string,
      id: string | undefined,
      input: never,
      ip: string,
    ) => Promise<unknown>,
    remove: (
      caller: Parameters<ExpenseSettingsService['get']>[0],
      number: string,
      id: string,
      ip: string,
    ) => Promise<void>,
  ) {
    app.post(
      `${base}/${part}`,
      handle(
        ({ caller, request, body: input }) =>
          save(caller, request.params.number, undefined, input as never, request.ip) as Promise<never>,
        { permission: maintain, params: companyParamsSchema, body, status: 201, response },
      ),
    );
    app.put(
      `${base}/${part}/:id`,
      handle(
        ({ caller, request, body: input }) =>
          save(
            caller,
            request.params.number,
            request.params.id,
            input as never,
            request.ip,
          ) as Promise<never>,
        { permission: maintain, params: companyRecordParamsSchema, body, response },
      ),
    );
    app.delete(
      `${base}/${part}/:id`,
      handle(({ caller, request }) => remove(caller, request.params.number, request.params.id, request.ip), {
        permission: maintain,
        params: companyRecordParamsSchema,
        response: { 204: noContentSchema },
      }),
    );
  }

  records(
    'types',
    expenseTypeBodySchema,
    expenseTypeSchema,
    (c, n, id, input, ip) => service.saveType(c, n, id, input, ip),
    (c, n, id, ip) => service.deleteType(c, n, id, ip),
  );
  records(
    'mileage-rates',
    mileageRateBodySchema,
    mileageRateSchema,
    (c, n, id, input, ip) => service.saveMileageRate(c, n, id, input, ip),
    (c, n, id, ip) => service.deleteMileageRate(c, n, id, ip),
  );
  records(
    'tax-rates',
    taxRateBodySchema,
    taxRateSchema,
    (c, n, id, input, ip) => service.saveTaxRate(c, n, id, input, ip),
    (c, n, id, ip) => service.deleteTaxRate(c, n, id, ip),
  );
  records(
    'approval-profiles',
    approvalProfileBodySchema,
    approvalProfileSchema,
    (c, n, id, input, ip) => service.saveProfile(c, n, id, input, ip),
    (c, n, id, ip) => service.deleteProfile(c, n, id, ip),
  );
  // A threshold is added or removed, not changed (a different amount is a different threshold).
  app.post(
    `${base}/approval-thresholds`,
    handle(
      ({ caller, request, body }) => service.createThreshold(caller, request.params.number, body, request.ip),
      {
        permission: maintain,
        params: companyParamsSchema,
        body: approvalThresholdBodySchema,
        status: 201,
        response: approvalThresholdSchema,
      },
    ),
  );
  app.delete(
    `${base}/approval-thresholds/:id`,
    handle(
      ({ caller, request }) =>
        service.deleteThreshold(caller, request.params.number, request.params.id, request.ip),
      {
        permission: maintain,
        params: companyRecordParamsSchema,
        response: { 204: noContentSchema },
      },
    ),
  );
}
