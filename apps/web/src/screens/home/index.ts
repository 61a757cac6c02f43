/**
 * The home page: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { HomeScreen } from './home-screen.tsx';
