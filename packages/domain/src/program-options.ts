/**
 * Program types and program options (seed 001 §1: "access to features is gated by issuer and company
 * program options"). Multi-user is not an option here: it is the company's own `multiUser` flag, which
 * once on never goes off (seed 001 §4). Decisions in docs/organisations.md.
 */

export const PROGRAM_TYPES = {
  corporate: 'Corporate Card',
  purchasing: 'Purchasing Card',
  travel: 'Travel Card',
  fleet: 'Fleet Card',
} as const;
export type ProgramTypeCode = keyof typeof PROGRAM_TYPES;

export const PROGRAM_OPTION_LEVELS = ['issuer', 'company'] as const;
export type ProgramOptionLevel = (typeof PROGRAM_OPTION_LEVELS)[number];

/** Features a program option switches on and off (screens show `app.programOption.{key}`). */
export const PROGRAM_OPTION_KEYS = [
  'twoFactor',
  'singleSignOn',
  'selfRegistration',
  'accessAsUser',
  'reportingStructureUpload',
  'expenseReports',
  'purchaseRequests',
  'virtualCards',
  'disputes',
  'wallet',
] as const;
export type ProgramOptionKey = (typeof PROGRAM_OPTION_KEYS)[number];

export function isProgramOptionKey(value: unknown): value is ProgramOptionKey {
  return typeof value === 'string' && (PROGRAM_OPTION_KEYS as readonly string[]).includes(value);
}

export type OptionSettings = Partial<Record<ProgramOptionKey, boolean>>;

/**
 * Whether a feature is on for a company: the issuer's option must be on (an issuer switches a feature
 * off for all its companies; absent = off), and the company's own setting, when it has one, may switch
 * it off again; a company without a setting inherits the issuer's.
 */
export function isFeatureEnabled(
  key: ProgramOptionKey,
  issuer: OptionSettings,
  company: OptionSettings = {},
): boolean {
  if (issuer[key] !== true) return false;
  return company[key] ?? true;
}
