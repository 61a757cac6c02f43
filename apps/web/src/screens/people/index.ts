/**
 * People: searching, viewing and editing users: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { PeopleSearchScreen } from './people-search-screen.tsx';
export { UserFormScreen } from './user-form-screen.tsx';
export { UserViewScreen } from './user-view-screen.tsx';
