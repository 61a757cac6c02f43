import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { isOfferedProgramOption, isProgramOptionKey, type ProgramOptionKey } from '../program-options.ts';

/**
 * Contracts of the issuer endpoints under /app/api/org (docs/api.md): issuers, issuer groups, company
 * groups and program options. Field rules are packages/domain organisations.ts (issuerSchema,
 * issuerGroupSchema, companyGroupSchema, whose limits are LIMITS); these bodies only give the shapes.
 * Every 4xx is ApiErrorBody `{ code, message, fieldErrors? }`.
 */

export interface IssuerSummary {
  number: string;
  name1: string;
  name2: string;
  ica: string;
  bankNumber: string;
  issuerGroupId: number | null;
  issuerGroupName: string | null;
  /** The co-brand its users sign in under by default; null: none. */
  cobrand: string | null;
  active: boolean;
}

/** What the caller may do with one issuer (the screens hide what the server would refuse). */
export interface IssuerAllowed {
  modify: boolean;
  /** Change the issuer group (Z only). */
  changeGroup: boolean;
  changeStatus: boolean;
  maintainCompanyGroups: boolean;
  modifyOptions: boolean;
}

export interface IssuerDetail extends IssuerSummary {
  /** Password policy of its users (seed 001 §5): shortest password, 12–20; days a password lasts, 30–90. */
  passwordMinLength: number;
  passwordDurationDays: number;
  companyCount: number;
  allowed: IssuerAllowed;
}

export interface IssuerList {
  rows: IssuerSummary[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
  /** The caller may create issuers. */
  canCreate: boolean;
}

const optionalText = z.string().optional();

/** `POST /app/api/org/issuers`: the issuer's fields, its group (id or none) and co-brand ('' none). */
export const newIssuerBodySchema = z.object({
  number: optionalText,
  name1: optionalText,
  name2: optionalText,
  ica: optionalText,
  bankNumber: optionalText,
  issuerGroupId: z.number().int().positive().nullish(),
  cobrand: z.string().nullish(),
  /** Range-checked by checkIssuerPasswordPolicy (a whole number of the wrong range: 400 naming it). */
  passwordMinLength: z.number({ error: 'issuer.passwordMinLength.range' }).optional(),
  passwordDurationDays: z.number({ error: 'issuer.passwordDurationDays.range' }).optional(),
});
export type NewIssuerBody = z.infer<typeof newIssuerBodySchema>;

/** An issuer's password settings, as stored. */
export interface IssuerPasswordPolicy {
  passwordMinLength: number;
  passwordDurationDays: number;
}

/** The settings of an issuer without its own (and of users without an issuer: types Z and H). */
export const DEFAULT_PASSWORD_POLICY: Readonly<IssuerPasswordPolicy> = {
  passwordMinLength: LIMITS.passwordMinLength,
  passwordDurationDays: LIMITS.passwordDurationDays,
};

/**
 * The password settings' bounds (seed 001 §5): minimum length a whole number from
 * LIMITS.passwordMinLength (12, never lower) to LIMITS.passwordMaxLength (20); duration a whole number
 * of days from 30 to 90. Answers `{ field: 'issuer.{field}.range' }` for each one out of range.
 */
export function checkIssuerPasswordPolicy(policy: Partial<IssuerPasswordPolicy>): Record<string, string> {
  const errors: Record<string, string> = {};
  const inRange = (v: number | undefined, min: number, max: number) =>
    v === undefined || (Number.isInteger(v) && v >= min && v <= max);
  if (!inRange(policy.passwordMinLength, LIMITS.passwordMinLength, LIMITS.passwordMaxLength))
    errors.passwordMinLength = 'issuer.passwordMinLength.range';
  if (!inRange(policy.passwordDurationDays, LIMITS.passwordDurationMinDays, LIMITS.passwordDurationMaxDays))
    errors.passwordDurationDays = 'issuer.passwordDurationDays.range';
  return errors;
}

/** `PATCH /app/api/org/issuers/:number`: any field but the number (it names the issuer). */
export const issuerPatchSchema = newIssuerBodySchema.omit({ number: true });
export type IssuerPatch = z.infer<typeof issuerPatchSchema>;

export interface IssuerGroupSummary {
  id: number;
  name: string;
  active: boolean;
  issuerCount: number;
  activeIssuerCount: number;
}

export interface IssuerGroupList {
  rows: IssuerGroupSummary[];
  canMaintain: boolean;
}

export interface CompanyGroupSummary {
  id: number;
  name: string;
  active: boolean;
  companyCount: number;
  activeCompanyCount: number;
}

export interface CompanyGroupList {
  issuer: { number: string; name1: string };
  rows: CompanyGroupSummary[];
  canMaintain: boolean;
}

/** `POST` and `PATCH` of an issuer group or a company group: its name. */
export const groupNameBodySchema = z.object({ name: z.string().optional() });
export type GroupNameBody = z.infer<typeof groupNameBodySchema>;

/** One program option as a screen shows it: each level's own setting (null: none) and the result. */
export interface ProgramOptionState {
  key: ProgramOptionKey;
  /** The issuer's own setting; null: no row (off). */
  issuer: boolean | null;
  /** The company's own setting (company level only); null: none, it inherits the issuer's. */
  company: boolean | null;
  /** isFeatureEnabled: on for the company (issuer level: the issuer's setting). */
  effective: boolean;
}

export interface ProgramOptionsView {
  level: 'issuer' | 'company';
  issuer: { number: string; name1: string };
  /** The company, at company level. */
  company?: { number: string; name1: string };
  canModify: boolean;
  options: ProgramOptionState[];
}

/**
 * The options a request sets: keys of PROGRAM_OPTION_KEYS (else `programOption.unknown`) that are
 * offered (else `programOption.notOffered`, on the key: the feature does not exist yet).
 */
const optionSettings = <T extends z.ZodType>(value: T) =>
  z
    .record(z.string(), value, { error: 'programOption.invalid' })
    .superRefine((o, context) => {
      for (const key of Object.keys(o)) {
        if (!isProgramOptionKey(key)) context.addIssue({ code: 'custom', message: 'programOption.unknown' });
        else if (!isOfferedProgramOption(key))
          context.addIssue({ code: 'custom', path: [key], message: 'programOption.notOffered' });
      }
    })
    .transform((o) => o as Partial<Record<ProgramOptionKey, z.output<T>>>);

/**
 * `PUT /app/api/org/issuers/:number/program-options`: the options to change, on or off; keys not
 * named stay as they are.
 */
export const issuerOptionsBodySchema = z.object({ options: optionSettings(z.boolean()) });
export type IssuerOptionsBody = z.infer<typeof issuerOptionsBodySchema>;

/**
 * `PUT /app/api/org/companies/:number/program-options`: on, off, or null (no own setting: inherit the
 * issuer's). A company may switch on only what its issuer has on (`programOption.issuerOff`).
 */
export const companyOptionsBodySchema = z.object({ options: optionSettings(z.boolean().nullable()) });
export type CompanyOptionsBody = z.infer<typeof companyOptionsBodySchema>;
