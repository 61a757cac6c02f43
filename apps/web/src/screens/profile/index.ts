/**
 * My Profile: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { ProfileScreen } from './profile-screen.tsx';
