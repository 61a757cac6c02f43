/**
 * Co-brand constants without zod, so a browser bundle that needs only these does not pull in the
 * schemas of cobrand.ts (the portal's page budget, docs/portal.md). Re-exported by cobrand.ts.
 */

/** The built-in default co-brand name (spec §1: used when neither the query nor session storage has one). */
export const DEFAULT_COBRAND = 'cardportal';

/** Special sign-in button label co-brand (spec §9). */
export const SPECIAL_SIGNIN_LABEL_ABBREVIATION = 'bnc';
