import { z } from 'zod';
import {
  ISSUER_CODE_LIMITS,
  ISSUER_CODE_LIST_NAMES,
  SYSTEM_STATUSES,
  type SystemStatus,
} from '../issuer-codes.ts';
import { LIMITS } from '../limits.ts';
import {
  isOfferedProgramOption,
  isProgramOptionKey,
  PROGRAM_OPTION_KEYS,
  type ProgramOptionKey,
} from '../program-options.ts';

/**
 * Contracts of the issuer endpoints under /app/api/org (docs/api.md): issuers, issuer groups, company
 * groups and program options. Field rules are packages/domain organisations.ts (issuerSchema,
 * issuerGroupSchema, companyGroupSchema, whose limits are LIMITS); these bodies only give the shapes.
 * Every 4xx is ApiErrorBody `{ code, message, fieldErrors? }`.
 */

export const issuerSummarySchema = z
  .object({
    number: z.string(),
    name1: z.string(),
    name2: z.string(),
    ica: z.string(),
    bankNumber: z.string(),
    issuerGroupId: z.number().int().nullable(),
    issuerGroupName: z.string().nullable(),
    /** The co-brand its users sign in under by default; null: none. */
    cobrand: z.string().nullable(),
    active: z.boolean(),
  })
  .meta({ id: 'IssuerSummary' });
export type IssuerSummary = z.infer<typeof issuerSummarySchema>;

/** What the caller may do with one issuer (the screens hide what the server would refuse). */
export const issuerAllowedSchema = z.object({
  modify: z.boolean(),
  /** Change the issuer group (Z only). */
  changeGroup: z.boolean(),
  changeStatus: z.boolean(),
  maintainCompanyGroups: z.boolean(),
  modifyOptions: z.boolean(),
});
export type IssuerAllowed = z.infer<typeof issuerAllowedSchema>;

export const issuerDetailSchema = issuerSummarySchema
  .extend({
    /** Password policy of its users (seed 001 §5): shortest password, 12–20; days a password lasts, 30–90. */
    passwordMinLength: z.number().int(),
    passwordDurationDays: z.number().int(),
    /** Its card BINs, comma-separated ('' : any). */
    cardBins: z.string(),
    accountDigits: z.number().int(),
    companyCount: z.number().int(),
    allowed: issuerAllowedSchema,
  })
  .meta({ id: 'IssuerDetail' });
export type IssuerDetail = z.infer<typeof issuerDetailSchema>;

export const issuerListSchema = z
  .object({
    rows: z.array(issuerSummarySchema),
    total: z.number().int(),
    page: z.number().int(),
    pageCount: z.number().int(),
    pageSize: z.number().int(),
    /** The caller may create issuers. */
    canCreate: z.boolean(),
  })
  .meta({ id: 'IssuerList' });
export type IssuerList = z.infer<typeof issuerListSchema>;

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
  /** The card BINs its card numbers start with (6–16 digits each, ≤ 255 characters); '' for any. */
  cardBins: z
    .string({ error: 'issuer.cardBins.format' })
    .max(1000, { error: 'issuer.cardBins.tooLong' })
    .optional(),
  /** How many last digits of a card number its screens show (1–8; at most the 4 kept in the clear). */
  accountDigits: z.number({ error: 'issuer.accountDigits.range' }).optional(),
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

export const issuerGroupSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    active: z.boolean(),
    issuerCount: z.number().int(),
    activeIssuerCount: z.number().int(),
  })
  .meta({ id: 'IssuerGroupSummary' });
export type IssuerGroupSummary = z.infer<typeof issuerGroupSummarySchema>;

export const issuerGroupListSchema = z
  .object({ rows: z.array(issuerGroupSummarySchema), canMaintain: z.boolean() })
  .meta({ id: 'IssuerGroupList' });
export type IssuerGroupList = z.infer<typeof issuerGroupListSchema>;

export const companyGroupSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    active: z.boolean(),
    companyCount: z.number().int(),
    activeCompanyCount: z.number().int(),
  })
  .meta({ id: 'CompanyGroupSummary' });
export type CompanyGroupSummary = z.infer<typeof companyGroupSummarySchema>;

const namedRef = z.object({ number: z.string(), name1: z.string() });

export const companyGroupListSchema = z
  .object({ issuer: namedRef, rows: z.array(companyGroupSummarySchema), canMaintain: z.boolean() })
  .meta({ id: 'CompanyGroupList' });
export type CompanyGroupList = z.infer<typeof companyGroupListSchema>;

/** `POST` and `PATCH` of an issuer group or a company group: its name. */
export const groupNameBodySchema = z.object({ name: z.string().optional() });
export type GroupNameBody = z.infer<typeof groupNameBodySchema>;

/** One program option as a screen shows it: each level's own setting (null: none) and the result. */
export const programOptionStateSchema = z.object({
  key: z.enum(PROGRAM_OPTION_KEYS),
  /** The issuer's own setting; null: no row (off). */
  issuer: z.boolean().nullable(),
  /** The company's own setting (company level only); null: none, it inherits the issuer's. */
  company: z.boolean().nullable(),
  /** isFeatureEnabled: on for the company (issuer level: the issuer's setting). */
  effective: z.boolean(),
});
export type ProgramOptionState = z.infer<typeof programOptionStateSchema>;

export const programOptionsViewSchema = z
  .object({
    level: z.enum(['issuer', 'company']),
    issuer: namedRef,
    /** The company, at company level. */
    company: namedRef.optional(),
    canModify: z.boolean(),
    options: z.array(programOptionStateSchema),
  })
  .meta({ id: 'ProgramOptionsView' });
export type ProgramOptionsView = z.infer<typeof programOptionsViewSchema>;

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

const SYSTEM_STATUS_CODES = Object.keys(SYSTEM_STATUSES) as [SystemStatus, ...SystemStatus[]];

/** One code of an issuer's list (dispute reasons, account status codes, maintenance reason codes). */
export const issuerCodeSchema = z
  .object({
    code: z.string(),
    description: z.string(),
    /** Account status codes: the system status it sets (A Active, S Suspended, C Closed); else null. */
    systemStatus: z.enum(SYSTEM_STATUS_CODES).nullable(),
  })
  .meta({ id: 'IssuerCode' });
export type IssuerCode = z.infer<typeof issuerCodeSchema>;

export const issuerCodeListSchema = z
  .object({
    list: z.enum(ISSUER_CODE_LIST_NAMES),
    rows: z.array(issuerCodeSchema),
    /** The caller may add, change and delete them. */
    canMaintain: z.boolean(),
    max: z.number().int(),
  })
  .meta({ id: 'IssuerCodeList' });
export type IssuerCodeList = z.infer<typeof issuerCodeListSchema>;

/** `POST /app/api/org/issuers/:number/{list}`: checked by checkIssuerCode. */
export const issuerCodeBodySchema = z.object({
  code: z.string({ error: 'issuerCode.code.required' }).max(20, { error: 'issuerCode.code.format' }),
  description: z
    .string({ error: 'issuerCode.description.required' })
    .max(ISSUER_CODE_LIMITS.descriptionMaxLength * 2, { error: 'issuerCode.description.tooLong' }),
  systemStatus: z.string().max(5).nullish(),
});
export type IssuerCodeBody = z.infer<typeof issuerCodeBodySchema>;

/** `PUT /app/api/org/issuers/:number/{list}/:code`: the code stays; description (and system status) change. */
export const issuerCodePatchSchema = issuerCodeBodySchema.omit({ code: true });
export type IssuerCodePatch = z.infer<typeof issuerCodePatchSchema>;

export const issuerCodeParamsSchema = z.object({
  number: z.string().describe('The issuer number'),
  code: z.string().describe('The code'),
});
