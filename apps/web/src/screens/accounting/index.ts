/**
 * A company's accounting codes and their values (issue 16): the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */

export { AccountCodingScreen } from './account-coding-screen.tsx';
export { AccountingCodesScreen } from './accounting-codes-screen.tsx';
export { AccountingSchemesScreen } from './accounting-schemes-screen.tsx';
export { AccountingSubsetsScreen } from './accounting-subsets-screen.tsx';
export { AccountingValuesScreen } from './accounting-values-screen.tsx';
export { CustomFieldsScreen } from './custom-fields-screen.tsx';
export { MassAllocationScreen } from './mass-allocation-screen.tsx';
