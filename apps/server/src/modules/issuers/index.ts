import type { ServerModule } from '../../kernel/module.ts';
import { issuerRoutes } from './routes.ts';

export { existingIssuerCodes, findIssuerCode, issuerCodesOf } from './issuer-codes.ts';
export { expiryFromNow, passwordPolicyOf } from './password-policy.ts';
export { companySingleSignOnConflict, isFeatureOn } from './program-options.ts';

/** Issuers and issuer groups, their program options and their password policy. */
export const issuersModule: ServerModule = { routes: issuerRoutes };
