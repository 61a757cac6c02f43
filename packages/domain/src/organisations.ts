import { z } from 'zod';
import { LIMITS } from './limits.ts';

/**
 * Validation of the organisation records of seed 001 §3 (issuer, company, their groups, org points,
 * account groups, accounts, cardholders). Lengths the seed does not give are ours (docs/organisations.md).
 * Every issue's message is a message key `{record}.{field}.{problem}` (screens show `validation.{key}`),
 * never an English sentence; toFieldErrors turns a failed parse into `{ field: key }`.
 */

/** Control characters and markup: never in a name (seed 001 §5: "HTML not allowed"). */
const FORBIDDEN_IN_NAMES = /[<>\p{Cc}]/u;

interface TextRule {
  required: boolean;
  max: number;
  /** Pattern the (trimmed) value must match when present; a miss is `{key}.format`. */
  pattern?: RegExp;
}

function textField(key: string, rule: TextRule) {
  return z
    .string({ error: `${key}.required` })
    .trim()
    .superRefine((value, ctx) => {
      const problem = textProblem(value, rule);
      if (problem) ctx.addIssue({ code: 'custom', message: `${key}.${problem}` });
    });
}

function textProblem(value: string, rule: TextRule): string | undefined {
  if (value.length === 0) return rule.required ? 'required' : undefined;
  if ([...value].length > rule.max) return 'tooLong';
  if (rule.pattern) return rule.pattern.test(value) ? undefined : 'format';
  if (FORBIDDEN_IN_NAMES.test(value)) return 'invalidCharacters';
  return undefined;
}

/** A name; an optional one defaults to '' (a default skips the checks, so required ones have none). */
function name(key: string, required: true, max?: number): ReturnType<typeof textField>;
function name(key: string, required: false, max?: number): z.ZodDefault<ReturnType<typeof textField>>;
function name(key: string, required: boolean, max: number = LIMITS.orgNameMaxLength) {
  const field = textField(key, { required, max });
  return required ? field : field.default('');
}
const digits = (key: string, maxDigits: number) =>
  textField(key, { required: true, max: maxDigits, pattern: new RegExp(`^\\d{1,${maxDigits}}$`) });

export const issuerGroupSchema = z.object(
  { name: name('issuerGroup.name', true, LIMITS.groupNameMaxLength) },
  { error: 'form.invalid' },
);

export const issuerSchema = z.object(
  {
    number: digits('issuer.number', LIMITS.issuerNumberMaxDigits),
    name1: name('issuer.name1', true),
    name2: name('issuer.name2', false),
    ica: digits('issuer.ica', LIMITS.icaMaxDigits),
    bankNumber: digits('issuer.bankNumber', LIMITS.bankNumberMaxDigits),
  },
  { error: 'form.invalid' },
);

export const companyGroupSchema = z.object(
  { name: name('companyGroup.name', true, LIMITS.groupNameMaxLength) },
  { error: 'form.invalid' },
);

export const companySchema = z.object(
  {
    number: digits('company.number', LIMITS.companyNumberMaxDigits),
    name1: name('company.name1', true),
    name2: name('company.name2', false),
    /** The company group's name; empty when the company belongs to none. */
    groupName: name('company.groupName', false, LIMITS.groupNameMaxLength),
  },
  { error: 'form.invalid' },
);

const orgPointNumber = (key: string, required: boolean) =>
  textField(key, {
    required,
    max: LIMITS.orgPointNumberMaxLength,
    pattern: new RegExp(`^[A-Za-z0-9]{1,${LIMITS.orgPointNumberMaxLength}}$`),
  });

/**
 * An org point of the reporting structure: number (letters and digits, unique per company), names,
 * reporting level (1 = top) and the number of the org point it reports to (empty only at level 1).
 * Whole-structure rules (unknown parent, cycles, levels) are checkReportingStructure's.
 */
export const orgPointSchema = z
  .object(
    {
      number: orgPointNumber('orgPoint.number', true),
      name1: name('orgPoint.name1', true),
      name2: name('orgPoint.name2', false),
      reportingLevel: z.coerce
        .number({ error: 'orgPoint.reportingLevel.required' })
        .int({ error: 'orgPoint.reportingLevel.format' })
        .min(1, { error: 'orgPoint.reportingLevel.outOfRange' })
        .max(LIMITS.reportingLevelMax, { error: 'orgPoint.reportingLevel.outOfRange' }),
      reportsTo: orgPointNumber('orgPoint.reportsTo', false)
        .nullish()
        .transform((v) => (v ? v : null)),
    },
    { error: 'form.invalid' },
  )
  .superRefine((point, ctx) => {
    if (point.reportsTo !== null && point.reportsTo.toLowerCase() === point.number.toLowerCase()) {
      ctx.addIssue({ code: 'custom', path: ['reportsTo'], message: 'orgPoint.reportsTo.self' });
    } else if (point.reportingLevel === 1 && point.reportsTo !== null) {
      ctx.addIssue({ code: 'custom', path: ['reportsTo'], message: 'orgPoint.reportsTo.topLevelHasNone' });
    } else if (point.reportingLevel > 1 && point.reportsTo === null) {
      ctx.addIssue({ code: 'custom', path: ['reportsTo'], message: 'orgPoint.reportsTo.required' });
    }
  });

export const accountGroupSchema = z.object(
  { name: name('accountGroup.name', true, LIMITS.groupNameMaxLength) },
  { error: 'form.invalid' },
);

/** Account statuses; a Closed account is the inactive form (accounts are never deleted). */
export const ACCOUNT_STATUSES = ['Active', 'Suspended', 'Closed'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Removes the spaces and dashes people type between digit groups. */
export function normaliseAccountNumber(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

export const accountSchema = z.object(
  {
    /** 12 to 19 digits (seed 001 §5, §9); spaces and dashes between groups are dropped. */
    number: z
      .string({ error: 'account.number.required' })
      .transform(normaliseAccountNumber)
      .superRefine((value, ctx) => {
        if (value.length === 0) ctx.addIssue({ code: 'custom', message: 'account.number.required' });
        else if (
          !new RegExp(`^\\d{${LIMITS.cardNumberMinDigits},${LIMITS.cardNumberMaxDigits}}$`).test(value)
        )
          ctx.addIssue({ code: 'custom', message: 'account.number.format' });
      }),
    groupName: name('account.groupName', false, LIMITS.groupNameMaxLength),
    status: z.enum(ACCOUNT_STATUSES, { error: 'account.status.invalid' }).default('Active'),
  },
  { error: 'form.invalid' },
);

export const cardholderSchema = z.object(
  {
    name1: name('cardholder.name1', true, LIMITS.cardholderNameMaxLength),
    name2: name('cardholder.name2', false, LIMITS.cardholderNameMaxLength),
  },
  { error: 'form.invalid' },
);

export type IssuerGroupInput = z.input<typeof issuerGroupSchema>;
export type IssuerInput = z.input<typeof issuerSchema>;
export type Issuer = z.output<typeof issuerSchema>;
export type CompanyGroupInput = z.input<typeof companyGroupSchema>;
export type CompanyInput = z.input<typeof companySchema>;
export type Company = z.output<typeof companySchema>;
export type OrgPointInput = z.input<typeof orgPointSchema>;
export type OrgPoint = z.output<typeof orgPointSchema>;
export type AccountGroupInput = z.input<typeof accountGroupSchema>;
export type AccountInput = z.input<typeof accountSchema>;
export type Account = z.output<typeof accountSchema>;
export type CardholderInput = z.input<typeof cardholderSchema>;
export type Cardholder = z.output<typeof cardholderSchema>;

/** A failed parse as `{ field: messageKey }`, the first problem of each field (`form` for the whole). */
export function toFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'form';
    out[field] ??= issue.message;
  }
  return out;
}

/**
 * An account number as it may be shown: at most the BIN (first 6 digits) and the last 4, the rest
 * masked; `showBin: false` keeps only the last 4. Short or malformed input is masked entirely.
 */
export function maskAccountNumber(raw: string, options: { showBin?: boolean } = {}): string {
  const number = normaliseAccountNumber(raw);
  const { accountBinDigits: bin, accountLastDigits: last } = LIMITS;
  if (!/^\d+$/.test(number) || number.length < LIMITS.cardNumberMinDigits) return '*'.repeat(number.length);
  const head = options.showBin === false ? 0 : bin;
  return number.slice(0, head) + '*'.repeat(number.length - head - last) + number.slice(-last);
}
