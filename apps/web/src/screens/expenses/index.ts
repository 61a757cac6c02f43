/**
 * A company's expense configuration (issue 17 item 1): the screens routes.tsx shows — this folder's
 * public surface (docs/architecture.md).
 */

export { ExpenseApprovalsScreen } from './approvals-screen.tsx';
export { ExpenseTypesScreen } from './expense-types-screen.tsx';
export { ExpensePolicyScreen } from './policy-screen.tsx';
export { ExpenseRatesScreen } from './rates-screen.tsx';
