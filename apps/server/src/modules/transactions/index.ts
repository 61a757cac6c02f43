import type { ServerModule } from '../../kernel/module.ts';
import { transactionCommands } from './commands.ts';
import { transactionRoutes } from './routes.ts';

export { type ImportReport, importTransactions } from './import.ts';

/** Card transactions: import, the Transaction Summary, their life (issue 15, docs/transactions.md). */
export const transactionsModule: ServerModule = { routes: transactionRoutes, commands: transactionCommands };
