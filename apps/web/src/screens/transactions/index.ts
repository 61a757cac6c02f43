/**
 * The Transaction Summary, one transaction, and the spend picture: this folder's public surface
 * (docs/architecture.md).
 */
export { SpendPicture } from './spend-picture.tsx';
export { TransactionExportScreen } from './transaction-export-screen.tsx';
export { TransactionImportScreen } from './transaction-import-screen.tsx';
export { TransactionViewScreen } from './transaction-view-screen.tsx';
export { TransactionsScreen } from './transactions-screen.tsx';
