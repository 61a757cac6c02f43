import type { ServerModule } from '../../kernel/module.ts';
import { issuerRoutes } from './routes.ts';

export { existingIssuerCodes, findIssuerCode, issuerCodesOf } from './issuer-codes.ts';
export { expiryFromNow, passwordPolicyOf } from './password-policy.ts';
export { companySingleSignOnConflict, isFeatureOn, isIssuerFeatureOn } from './program-options.ts';
/** An issuer the caller may see, by its number (undefined: none, or outside the caller's scope). */
export { findIssuerInScope } from './repository.ts';

/** Issuers and issuer groups, their program options and their password policy. */
export const issuersModule: ServerModule = { routes: issuerRoutes };
