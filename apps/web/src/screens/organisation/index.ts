/**
 * Companies and their structure: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { CompanyFormScreen } from './company-form-screen.tsx';
export { CompanySearchScreen } from './company-search-screen.tsx';
export { CompanyViewScreen } from './company-view-screen.tsx';
