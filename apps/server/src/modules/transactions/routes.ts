import {
  recordParamsSchema,
  spendQuerySchema,
  spendSummarySchema,
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
}
