/**
 * Roles and permissions: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { RolesScreen } from './roles-screen.tsx';
