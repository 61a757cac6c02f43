import { z } from 'zod';
import {
  ACCOUNTING_CODE_KINDS,
  ACCOUNTING_ENTRY_MODES,
  ACCOUNTING_LIMITS,
  OVERRIDE_LEVELS,
} from '../accounting.ts';
import { companyNumberParam, keysetPageFields, keysetQueryFields, lenient, recordIdParam } from './common.ts';

/**
 * Contracts of a company's accounting codes and their values under
 * `/app/api/org/companies/:number/accounting-codes` (issue 16 item 1, docs/accounting.md). Field
 * problems are message keys; the rules themselves are packages/domain accounting.ts.
 */

export const accountingCodeRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type AccountingCodeRef = z.infer<typeof accountingCodeRefSchema>;

export const accountingCodeSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** 1-based place in the company's ledger string (the export's column order). */
    position: z.number().int(),
    kind: z.enum(ACCOUNTING_CODE_KINDS),
    /** As configured; `effectiveEntry` says how it is entered now (past 10,000 values: typed). */
    entry: z.enum(ACCOUNTING_ENTRY_MODES),
    effectiveEntry: z.enum(ACCOUNTING_ENTRY_MODES),
    /** A text code's length (1–25); a list code's values are up to 25. */
    maxLength: z.number().int(),
    dependsOn: accountingCodeRefSchema.nullable(),
    active: z.boolean(),
    /** Values of a list code (0 for a text code). */
    valueCount: z.number().int(),
  })
  .meta({ id: 'AccountingCode' });
export type AccountingCode = z.infer<typeof accountingCodeSchema>;

export const accountingCodeListSchema = z
  .object({
    rows: z.array(accountingCodeSchema),
    canModify: z.boolean(),
    readOnly: z.boolean(),
    /** How many codes the company may still add (`ACCOUNTING_LIMITS.codesPerCompany`). */
    remaining: z.number().int(),
  })
  .meta({ id: 'AccountingCodeList' });
export type AccountingCodeList = z.infer<typeof accountingCodeListSchema>;

/** `POST .../accounting-codes`: a new code at the end of the ledger string. */
export const newAccountingCodeBodySchema = z.object({
  name: z
    .string({ error: 'accountingCode.name.required' })
    .max(200, { error: 'accountingCode.name.tooLong' }),
  kind: z.enum(ACCOUNTING_CODE_KINDS, { error: 'accountingCode.kind.invalid' }),
  entry: z.enum(ACCOUNTING_ENTRY_MODES, { error: 'accountingCode.entry.invalid' }).default('list'),
  maxLength: z
    .number({ error: 'accountingCode.maxLength.range' })
    .int({ error: 'accountingCode.maxLength.range' })
    .default(ACCOUNTING_LIMITS.valueMaxLength),
  dependsOn: z
    .number({ error: 'accountingCode.dependsOn.unknown' })
    .int({ error: 'accountingCode.dependsOn.unknown' })
    .nullable()
    .default(null),
});
export type NewAccountingCodeBody = z.input<typeof newAccountingCodeBodySchema>;

/** `PATCH .../accounting-codes/:id`: any of name, entry, length, dependency, position, active. The kind never changes. */
export const accountingCodePatchSchema = z.object({
  name: z
    .string({ error: 'accountingCode.name.required' })
    .max(200, { error: 'accountingCode.name.tooLong' })
    .optional(),
  entry: z.enum(ACCOUNTING_ENTRY_MODES, { error: 'accountingCode.entry.invalid' }).optional(),
  maxLength: z
    .number({ error: 'accountingCode.maxLength.range' })
    .int({ error: 'accountingCode.maxLength.range' })
    .optional(),
  dependsOn: z
    .number({ error: 'accountingCode.dependsOn.unknown' })
    .int({ error: 'accountingCode.dependsOn.unknown' })
    .nullable()
    .optional(),
  /** Moves the code to this place (1 to the number of codes); the others close up. */
  position: z
    .number({ error: 'accountingCode.position.range' })
    .int({ error: 'accountingCode.position.range' })
    .optional(),
  active: z.boolean({ error: 'form.invalid' }).optional(),
});
export type AccountingCodePatch = z.infer<typeof accountingCodePatchSchema>;

export const accountingCodeParamsSchema = z.object({ number: companyNumberParam, id: recordIdParam });
export const accountingValueParamsSchema = z.object({
  number: companyNumberParam,
  id: recordIdParam,
  valueId: recordIdParam,
});

export const accountingValueSchema = z
  .object({
    id: z.number().int(),
    value: z.string(),
    description: z.string(),
    /** The parent code's value this one belongs to (a dependent code), else null. */
    parent: z.object({ id: z.number().int(), value: z.string(), description: z.string() }).nullable(),
    active: z.boolean(),
  })
  .meta({ id: 'AccountingValue' });
export type AccountingValue = z.infer<typeof accountingValueSchema>;

export const accountingValueListSchema = z
  .object({
    code: accountingCodeSchema,
    rows: z.array(accountingValueSchema),
    ...keysetPageFields,
    /**
     * True when the code holds more than 10,000 values and no search was given: nothing is listed
     * (seed 001 §9), the caller searches.
     */
    searchRequired: z.boolean(),
    pageSize: z.number().int(),
    canModify: z.boolean(),
    readOnly: z.boolean(),
  })
  .meta({ id: 'AccountingValueList' });
export type AccountingValueList = z.infer<typeof accountingValueListSchema>;

/** `GET .../accounting-codes/:id/values?q=&parent=&after=|before=` */
export const accountingValueQuerySchema = z.object({
  q: lenient(z.string()).describe('The start of the value or of its description (2–100 characters)'),
  parent: lenient(z.string()).describe("A parent value's id: only the values under it (a dependent code)"),
  status: lenient(z.enum(['active', 'inactive'])).describe('active or inactive; absent: both'),
  ...keysetQueryFields,
});

/** `POST .../accounting-codes/:id/values`: a customer code, its description, and (dependent code) its parent value. */
export const newAccountingValueBodySchema = z.object({
  value: z
    .string({ error: 'accountingValue.value.required' })
    .max(200, { error: 'accountingValue.value.tooLong' }),
  description: z
    .string({ error: 'accountingValue.description.tooLong' })
    .max(1000, { error: 'accountingValue.description.tooLong' })
    .default(''),
  /** The parent code's value (its customer code, any case) — required for a dependent code, refused otherwise. */
  parent: z
    .string({ error: 'accountingValue.parent.unknown' })
    .max(200, { error: 'accountingValue.parent.unknown' })
    .nullable()
    .default(null),
});
export type NewAccountingValueBody = z.input<typeof newAccountingValueBodySchema>;

/** `PATCH .../values/:valueId`: description, active. A customer code never changes (ledgers know it). */
export const accountingValuePatchSchema = z.object({
  description: z
    .string({ error: 'accountingValue.description.tooLong' })
    .max(1000, { error: 'accountingValue.description.tooLong' })
    .optional(),
  active: z.boolean({ error: 'form.invalid' }).optional(),
});
export type AccountingValuePatch = z.infer<typeof accountingValuePatchSchema>;

// ---- Schemes and subsets (issue 16 item 2) ----

export const accountingSubsetSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: accountingCodeRefSchema,
    /** The subset's values (customer codes), in code order. */
    values: z.array(z.object({ id: z.number().int(), value: z.string(), description: z.string() })),
    /** Schemes whose lines use it (it cannot be deleted while any does). */
    usedBy: z.array(z.string()),
  })
  .meta({ id: 'AccountingSubset' });
export type AccountingSubset = z.infer<typeof accountingSubsetSchema>;

export const accountingSubsetListSchema = z
  .object({ rows: z.array(accountingSubsetSchema), canModify: z.boolean(), readOnly: z.boolean() })
  .meta({ id: 'AccountingSubsetList' });
export type AccountingSubsetList = z.infer<typeof accountingSubsetListSchema>;

/** `POST .../accounting-subsets`, `PUT .../accounting-subsets/:id`: name, the code, its values by customer code. */
export const accountingSubsetBodySchema = z.object({
  name: z
    .string({ error: 'accountingSubset.name.required' })
    .max(200, { error: 'accountingSubset.name.tooLong' }),
  codeId: z
    .number({ error: 'accountingSubset.code.unknown' })
    .int({ error: 'accountingSubset.code.unknown' }),
  values: z
    .array(
      z
        .string({ error: 'accountingSubset.values.unknown' })
        .max(200, { error: 'accountingSubset.values.unknown' }),
      {
        error: 'accountingSubset.values.required',
      },
    )
    .max(10_000, { error: 'accountingSubset.values.tooMany' }),
});
export type AccountingSubsetBody = z.infer<typeof accountingSubsetBodySchema>;

export const accountingSchemeLineSchema = z.object({
  code: accountingCodeRefSchema,
  required: z.boolean(),
  override: z.enum(OVERRIDE_LEVELS),
  subset: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type AccountingSchemeLine = z.infer<typeof accountingSchemeLineSchema>;

export const accountingSchemeSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** The company's default: the scheme of every account without one of its own or of its group. */
    isDefault: z.boolean(),
    lines: z.array(accountingSchemeLineSchema),
    /** Accounts and account groups it is assigned to (it cannot be deleted while any is, nor while default). */
    accounts: z.number().int(),
    groups: z.number().int(),
  })
  .meta({ id: 'AccountingScheme' });
export type AccountingScheme = z.infer<typeof accountingSchemeSchema>;

export const accountingSchemeListSchema = z
  .object({ rows: z.array(accountingSchemeSchema), canModify: z.boolean(), readOnly: z.boolean() })
  .meta({ id: 'AccountingSchemeList' });
export type AccountingSchemeList = z.infer<typeof accountingSchemeListSchema>;

/** `POST .../accounting-schemes`, `PUT .../accounting-schemes/:id`: the whole scheme. */
export const accountingSchemeBodySchema = z.object({
  name: z
    .string({ error: 'accountingScheme.name.required' })
    .max(200, { error: 'accountingScheme.name.tooLong' }),
  isDefault: z.boolean({ error: 'form.invalid' }).default(false),
  lines: z
    .array(
      z.object({
        codeId: z
          .number({ error: 'accountingScheme.code.unknown' })
          .int({ error: 'accountingScheme.code.unknown' }),
        required: z.boolean({ error: 'form.invalid' }).default(false),
        override: z
          .enum(OVERRIDE_LEVELS, { error: 'accountingScheme.override.invalid' })
          .default('cardholder'),
        subsetId: z
          .number({ error: 'accountingScheme.subset.otherCode' })
          .int({ error: 'accountingScheme.subset.otherCode' })
          .nullable()
          .default(null),
      }),
      { error: 'accountingScheme.codes.required' },
    )
    .max(ACCOUNTING_LIMITS.codesPerCompany, { error: 'accountingScheme.code.duplicate' }),
});
export type AccountingSchemeBody = z.input<typeof accountingSchemeBodySchema>;

/** The coding set up for one card account: its scheme (own, its group's or the default) and default values. */
export const accountCodingSchema = z
  .object({
    accountId: z.number().int(),
    /** The scheme assigned to the account itself, null when it takes its group's or the default. */
    ownScheme: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    /** The scheme the account takes without one of its own (its group's, else the default), null when none. */
    inheritedScheme: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    /** The scheme in effect and where it comes from. */
    scheme: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    source: z.enum(['account', 'group', 'default', 'none']),
    /** The scheme's codes with the account's default for each (a value of a list code, or text). */
    defaults: z.array(
      z.object({
        code: accountingCodeRefSchema,
        kind: z.enum(ACCOUNTING_CODE_KINDS),
        value: z.string().nullable(),
        description: z.string().nullable(),
      }),
    ),
    canModify: z.boolean(),
    readOnly: z.boolean(),
  })
  .meta({ id: 'AccountCoding' });
export type AccountCoding = z.infer<typeof accountCodingSchema>;

/** `PUT .../accounts/:id/coding`: its own scheme (null: the group's or default) and its defaults by code id. */
export const accountCodingBodySchema = z.object({
  schemeId: z
    .number({ error: 'accountingScheme.notFound' })
    .int({ error: 'accountingScheme.notFound' })
    .nullable(),
  defaults: z
    .record(
      z.string(),
      z
        .string({ error: 'accountingValue.value.format' })
        .max(200, { error: 'accountingValue.value.tooLong' }),
    )
    .default({}),
});
export type AccountCodingBody = z.input<typeof accountCodingBodySchema>;

/** `PUT .../accounting-groups/:id`: the account group's scheme (null: the company's default). */
export const groupSchemeBodySchema = z.object({
  schemeId: z
    .number({ error: 'accountingScheme.notFound' })
    .int({ error: 'accountingScheme.notFound' })
    .nullable(),
});
export const groupSchemeSchema = z
  .object({
    groupId: z.number().int(),
    name: z.string(),
    active: z.boolean(),
    scheme: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  })
  .meta({ id: 'GroupScheme' });
export type GroupScheme = z.infer<typeof groupSchemeSchema>;
export const groupSchemeListSchema = z
  .object({ rows: z.array(groupSchemeSchema), canModify: z.boolean(), readOnly: z.boolean() })
  .meta({ id: 'GroupSchemeList' });
export type GroupSchemeList = z.infer<typeof groupSchemeListSchema>;

// ---- The values as a file (issue 16 item 5) ----

/**
 * The columns of a code's values file, the download's and the upload's (first row; case and spaces
 * ignored; `value` required, the others optional; other columns ignored). `parent`: the customer code
 * of the value it belongs to (a dependent code); `active`: yes or no.
 */
export const ACCOUNTING_VALUE_FILE_COLUMNS = ['value', 'description', 'parent', 'active'] as const;

/** `POST .../accounting-codes/:id/values/upload`: the file's bytes (CSV or .xlsx, told by content), at most 4 MB. */
export const ACCOUNTING_VALUE_FILE_MEDIA_TYPE = 'application/octet-stream';
export const accountingValueFileBodySchema = z
  .custom<Uint8Array>((body) => body instanceof Uint8Array && body.length > 0, { error: 'upload.empty' })
  .meta({
    type: 'string',
    contentMediaType: 'application/octet-stream',
    description: 'CSV or .xlsx, at most 4 MB',
  });

export const accountingValueUploadResultSchema = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
  })
  .meta({ id: 'AccountingValueUploadResult' });
export type AccountingValueUploadResult = z.infer<typeof accountingValueUploadResultSchema>;

/** `GET .../accounting-codes/:id/values.{csv|xlsx}`: every value of the code, in the upload's format. */
export const accountingValueFileParamsSchema = z.object({
  number: companyNumberParam,
  id: recordIdParam,
  format: z.enum(['csv', 'xlsx']).describe('csv or xlsx'),
});
