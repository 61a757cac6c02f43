import { z } from 'zod';
import { ACCOUNTING_CODE_KINDS, ACCOUNTING_ENTRY_MODES, ACCOUNTING_LIMITS } from '../accounting.ts';
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
