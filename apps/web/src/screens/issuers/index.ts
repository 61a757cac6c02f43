/**
 * Issuers, issuer groups, program options and company registrations: the screens routes.tsx shows — this folder's public surface (docs/architecture.md).
 */
export { CompanyRegistrationsScreen } from './company-registrations-screen.tsx';
export { IssuerCodesScreen } from './issuer-codes-screen.tsx';
export { IssuerFormScreen } from './issuer-form-screen.tsx';
export { IssuerGroupsScreen } from './issuer-groups-screen.tsx';
export { IssuerSearchScreen } from './issuer-search-screen.tsx';
export { IssuerViewScreen } from './issuer-view-screen.tsx';
export { ProgramOptionsScreen } from './program-options-screen.tsx';
