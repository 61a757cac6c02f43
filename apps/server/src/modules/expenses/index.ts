import type { ServerModule } from '../../kernel/module.ts';
import { expenseRoutes } from './routes.ts';

export { loadRouteContext } from './route-context.ts';

/** Expense management (issue 17, docs/expenses.md): a company's expense configuration. */
export const expensesModule: ServerModule = { routes: expenseRoutes };
