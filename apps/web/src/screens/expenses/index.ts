/**
 * Expense management (issue 17): a company's expense configuration, expense reports (a cardholder's
 * own, one report, the approver's queue, a company's) — the screens routes.tsx shows, this folder's
 * public surface (docs/architecture.md).
 */

export { ExpenseApprovalsScreen } from './approvals-screen.tsx';
export { ExpenseTypesScreen } from './expense-types-screen.tsx';
export { ExpensePolicyScreen } from './policy-screen.tsx';
export { ExpenseRatesScreen } from './rates-screen.tsx';
export {
  CompanyExpenseReportsScreen,
  ExpenseQueueScreen,
  MyExpenseReportsScreen,
} from './report-lists.tsx';
export { ExpenseReportScreen } from './report-screen.tsx';
