/**
 * The audit trail: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { AuditScreen } from './audit-screen.tsx';
