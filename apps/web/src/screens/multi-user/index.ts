/**
 * The multi-user gate: confirming a link, choosing a user ID: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { MultiUserGate } from './multi-user-gate.tsx';
