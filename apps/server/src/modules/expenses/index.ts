import type { ServerModule } from '../../kernel/module.ts';
import { expenseRoutes } from './routes.ts';

/** Expense management (issue 17, docs/expenses.md): a company's expense configuration. */
export const expensesModule: ServerModule = { routes: expenseRoutes };
