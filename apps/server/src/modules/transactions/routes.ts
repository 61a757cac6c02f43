import {
  noBodySchema,
  recordParamsSchema,
  spendQuerySchema,
  spendSummarySchema,
  TRANSACTION_STEP_NAMES,
  TRANSACTION_STEPS,
  transactionDetailSchema,
  transactionListSchema,
  transactionQuerySchema,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import { appHandler } from '../../http/app-handler.ts';
import { TransactionService } from './service.ts';

/**
 * The Transaction Summary under /app/api/transactions (docs/transactions.md, docs/api.md): the list
 * with its filters and the detail of one, every user type within its scope. No-store, like every
 * application answer.
 */
export async function transactionRoutes(app: FastifyInstance): Promise<void> {
  const service = new TransactionService(app.db);
  const handle = appHandler(app);

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
}
