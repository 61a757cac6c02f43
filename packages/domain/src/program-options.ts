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
  'transactionApproval',
] as const;
export type ProgramOptionKey = (typeof PROGRAM_OPTION_KEYS)[number];

export function isProgramOptionKey(value: unknown): value is ProgramOptionKey {
  return typeof value === 'string' && (PROGRAM_OPTION_KEYS as readonly string[]).includes(value);
}

/**
 * The options whose feature exists today (issue 13 item 6): two-factor (My Profile), single sign-on
 * (SSO users and the co-brand's federated sign-in), cardholder self-registration (issue 18), access as
 * user, the reporting-structure upload, transaction review and approval, and disputes.
 * Only these are offered as switches — the API lists and accepts only these, the screens show only
 * these — and only these can be on. The rest of PROGRAM_OPTION_KEYS name features still to come
 * (expense reports, purchase requests, virtual cards, wallet): their
 * stored rows are kept and ignored, and the issue that builds a feature adds its key here.
 */
export const OFFERED_PROGRAM_OPTION_KEYS = [
  'twoFactor',
  'singleSignOn',
  'selfRegistration',
  'accessAsUser',
  'reportingStructureUpload',
  'disputes',
  'transactionApproval',
] as const satisfies readonly ProgramOptionKey[];
export type OfferedProgramOptionKey = (typeof OFFERED_PROGRAM_OPTION_KEYS)[number];

export function isOfferedProgramOption(value: unknown): value is OfferedProgramOptionKey {
  return typeof value === 'string' && (OFFERED_PROGRAM_OPTION_KEYS as readonly string[]).includes(value);
}

/** Refusals of option combinations the seed forbids (message keys `validation.{problem}`). */
export type ProgramOptionConflict =
  | 'programOption.ssoWithSelfRegistration'
  | 'programOption.ssoWithMultiUser';

/**
 * Seed 001 §6: "SSO cannot be combined with multi-user or self-registration". For one company (or an
 * issuer alone: `multiUser` false), given what would be in effect: single sign-on may not be on
 * together with self-registration, nor for a company whose multi-user is on.
 */
export function singleSignOnConflict(effective: {
  singleSignOn: boolean;
  selfRegistration: boolean;
  multiUser: boolean;
}): ProgramOptionConflict | undefined {
  if (!effective.singleSignOn) return undefined;
  if (effective.selfRegistration) return 'programOption.ssoWithSelfRegistration';
  if (effective.multiUser) return 'programOption.ssoWithMultiUser';
  return undefined;
}

export type OptionSettings = Partial<Record<ProgramOptionKey, boolean>>;

/**
 * Whether a feature is on for a company: it must be offered, the issuer's option must be on (an issuer switches a feature
 * off for all its companies; absent = off), and the company's own setting, when it has one, may switch
 * it off again; a company without a setting inherits the issuer's.
 */
export function isFeatureEnabled(
  key: ProgramOptionKey,
  issuer: OptionSettings,
  company: OptionSettings = {},
): boolean {
  // A feature not yet offered is off, whatever a stored row says.
  if (!isOfferedProgramOption(key)) return false;
  if (issuer[key] !== true) return false;
  return company[key] ?? true;
}
