import { z } from 'zod';
import { ACCOUNTING_CODE_KINDS, ACCOUNTING_ENTRY_MODES, OVERRIDE_LEVELS } from '../accounting.ts';
import { ALLOCATION_LIMITS, ALLOCATION_MODES } from '../allocation.ts';
import { lenient } from './common.ts';
import { moneySchema } from './transactions.ts';

/**
 * Contracts of a transaction's cost allocation (`/app/api/transactions/:id/allocation`) and of mass
 * allocation (`/app/api/transactions/mass-allocations`), issue 16 item 3, docs/accounting.md.
 */

/** A code of the scheme that codes the transaction, and whether the caller may change it. */
export const codingCodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(ACCOUNTING_CODE_KINDS),
  entry: z.enum(ACCOUNTING_ENTRY_MODES),
  required: z.boolean(),
  override: z.enum(OVERRIDE_LEVELS),
  /** The caller's type may change it here (the override level), and the transaction is open to change. */
  mayEdit: z.boolean(),
  dependsOn: z.number().int().nullable(),
  maxLength: z.number().int(),
});
export type CodingCode = z.infer<typeof codingCodeSchema>;

/** A code's value on a line: the customer code (or text) and its description. */
export const codedValueSchema = z.object({ value: z.string(), description: z.string() });

export const allocationLineSchema = z.object({
  amount: moneySchema,
  /** The percent it was allocated by, null when by amount. */
  percent: z.number().int().nullable(),
  /** Code id → its value on this line. */
  coding: z.record(z.string(), codedValueSchema),
});
export type AllocationLine = z.infer<typeof allocationLineSchema>;

export const allocationPartSchema = z.object({
  /** 0: the whole transaction; else the line of its split. */
  splitLine: z.number().int(),
  amount: moneySchema,
  description: z.string(),
  /** `allocation`: lines stored; `default`: none stored, the account's default coding applies to all of it. */
  source: z.enum(['allocation', 'default']),
  lines: z.array(allocationLineSchema),
  /** The mass allocation that wrote it, if one did. */
  batchId: z.number().int().nullable(),
});
export type AllocationPart = z.infer<typeof allocationPartSchema>;

export const transactionAllocationSchema = z
  .object({
    transactionId: z.number().int(),
    scheme: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    codes: z.array(codingCodeSchema),
    parts: z.array(allocationPartSchema),
    /** The caller may change the allocation now (its type, the transaction neither locked nor exported). */
    canEdit: z.boolean(),
    /** Why not, when the transaction is locked or exported (a message key). */
    blocked: z.string().nullable(),
  })
  .meta({ id: 'TransactionAllocation' });
export type TransactionAllocation = z.infer<typeof transactionAllocationSchema>;

/** `PUT /app/api/transactions/:id/allocation`: one part's lines; `lines: []` goes back to the default coding. */
export const allocationBodySchema = z.object({
  splitLine: z
    .number({ error: 'allocation.splitLine.unknown' })
    .int({ error: 'allocation.splitLine.unknown' })
    .default(0),
  mode: z.enum(ALLOCATION_MODES, { error: 'allocation.mode.invalid' }),
  lines: z
    .array(
      z.object({
        /** By amount: major units of the transaction's currency (`12.50`). */
        amount: z
          .string({ error: 'money.amount.format' })
          .max(40, { error: 'money.amount.format' })
          .optional(),
        /** By percent: a whole number 1–100. */
        percent: z.number({ error: 'allocation.percent.range' }).optional(),
        coding: z
          .record(z.string(), z.string().max(200, { error: 'accountingValue.value.tooLong' }))
          .default({}),
      }),
      { error: 'allocation.lines.count' },
    )
    .max(ALLOCATION_LIMITS.maxLines, { error: 'allocation.lines.count' }),
});
export type AllocationBody = z.input<typeof allocationBodySchema>;

/** `GET /app/api/transactions/:id/allocation/values?code=&q=&parent=`: what a line offers for a code. */
export const offeredValuesQuerySchema = z.object({
  code: lenient(z.string()).describe('The code id (one of the scheme’s list codes)'),
  q: lenient(z.string()).describe('The start of the value or of its description'),
  parent: lenient(z.string()).describe('The customer code chosen for the code it depends on'),
});
export const offeredValuesSchema = z
  .object({
    rows: z.array(z.object({ id: z.number().int(), value: z.string(), description: z.string() })),
    /** More match than were sent: type more. */
    more: z.boolean(),
  })
  .meta({ id: 'OfferedValues' });
export type OfferedValues = z.infer<typeof offeredValuesSchema>;

/**
 * `POST /app/api/transactions/mass-allocations`: a company's transactions — chosen by id, or every one of
 * a date range (and account) — coded alike by percent, all or nothing.
 */
export const massAllocationBodySchema = z.object({
  company: z.string({ error: 'company.notFound' }).max(20, { error: 'company.notFound' }),
  transactionIds: z
    .array(
      z
        .number({ error: 'massAllocation.selection.invalid' })
        .int({ error: 'massAllocation.selection.invalid' }),
    )
    .max(ALLOCATION_LIMITS.massMax, { error: 'massAllocation.selection.tooMany' })
    .optional(),
  from: z.string({ error: 'date.invalid' }).max(10, { error: 'date.invalid' }).optional(),
  to: z.string({ error: 'date.invalid' }).max(10, { error: 'date.invalid' }).optional(),
  lines: z
    .array(
      z.object({
        percent: z.number({ error: 'allocation.percent.range' }),
        coding: z
          .record(z.string(), z.string().max(200, { error: 'accountingValue.value.tooLong' }))
          .default({}),
      }),
      { error: 'allocation.lines.count' },
    )
    .max(ALLOCATION_LIMITS.maxLines, { error: 'allocation.lines.count' }),
});
export type MassAllocationBody = z.input<typeof massAllocationBodySchema>;

export const massAllocationSchema = z
  .object({
    id: z.number().int(),
    company: z.string(),
    by: z.string(),
    at: z.string(),
    transactions: z.number().int(),
    /** Of a date range, the transactions left as they were: locked, exported or split. */
    skipped: z.number().int(),
    /** What was applied: each line's percent and coding (code name → value). */
    coding: z.array(z.object({ percent: z.number().int(), coding: z.record(z.string(), z.string()) })),
    undoneAt: z.string().nullable(),
  })
  .meta({ id: 'MassAllocation' });
export type MassAllocation = z.infer<typeof massAllocationSchema>;

export const massAllocationListSchema = z
  .object({ rows: z.array(massAllocationSchema) })
  .meta({ id: 'MassAllocationList' });
export type MassAllocationList = z.infer<typeof massAllocationListSchema>;

/** `GET /app/api/transactions/mass-allocations?company=`: the company's latest 20. */
export const massAllocationQuerySchema = z.object({
  company: lenient(z.string()).describe('The company number'),
});

/** A refused mass allocation names the transactions that refused it (the first 100) — nothing changed. */
export const massAllocationRefusalSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.string()).optional(),
    problems: z
      .array(
        z.object({
          transactionId: z.number().int(),
          reference: z.string(),
          problem: z.string(),
          code: z.string().nullable(),
        }),
      )
      .optional(),
    total: z.number().int().optional(),
  })
  .meta({ id: 'MassAllocationRefusal' });
