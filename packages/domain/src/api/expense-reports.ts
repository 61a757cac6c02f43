import { z } from 'zod';
import {
  EXPENSE_LINE_FLAGS,
  EXPENSE_LINE_KINDS,
  EXPENSE_REPORT_LIMITS,
  EXPENSE_REPORT_STATUSES,
} from '../expense-reports.ts';
import { EXPENSE_CATEGORIES, EXPENSE_PROPERTY_KINDS, MILEAGE_UNITS } from '../expenses.ts';
import { keysetPageFields, keysetQueryFields, lenient, pathText, recordIdParam } from './common.ts';
import { moneySchema } from './transactions.ts';

/**
 * Contracts of expense reports (issue 17 items 2–4, docs/expenses.md): a cardholder's reports under
 * `/app/api/my/expense-reports`, one report (its lines, receipts, route and history) under
 * `/app/api/expense-reports/:id`, the approver's queue at `/app/api/expense-approvals`, a company's reports
 * under `/app/api/org/companies/:number/expense-reports`. Amounts are typed in major units with the
 * currency's decimals and answered as Money.
 */

const person = z.object({ userId: z.string(), name: z.string() });

export const expenseReportSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    status: z.enum(EXPENSE_REPORT_STATUSES),
    total: moneySchema,
    lines: z.number().int(),
    /** Lines the policy flags (over a limit, a receipt missing). */
    flagged: z.number().int(),
    owner: person,
    companyNumber: z.string(),
    submittedAt: z.string().nullable(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ExpenseReportSummary' });
export type ExpenseReportSummary = z.infer<typeof expenseReportSummarySchema>;

export const expenseReportListSchema = z
  .object({ rows: z.array(expenseReportSummarySchema), ...keysetPageFields })
  .meta({ id: 'ExpenseReportList' });
export type ExpenseReportList = z.infer<typeof expenseReportListSchema>;

export const expenseLineSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(EXPENSE_LINE_KINDS),
    type: z.object({ id: z.number().int(), name: z.string() }),
    date: z.string(),
    description: z.string(),
    amount: moneySchema,
    /** The tax included in the amount, when the line names a tax rate. */
    tax: moneySchema.nullable(),
    taxRateId: z.number().int().nullable(),
    /** A card line's transaction (the card masked: BIN and last four). */
    transaction: z
      .object({
        id: z.number().int(),
        reference: z.string(),
        merchantName: z.string(),
        maskedNumber: z.string(),
      })
      .nullable(),
    mileage: z
      .object({
        rateId: z.number().int(),
        rateName: z.string(),
        unit: z.enum(MILEAGE_UNITS),
        odometerStart: z.number().int(),
        odometerEnd: z.number().int(),
        distance: z.number().int(),
      })
      .nullable(),
    /** The values of the expense type's properties, by label. */
    properties: z.record(z.string(), z.string()),
    receipt: z.object({ name: z.string(), mediaType: z.string(), size: z.number().int() }).nullable(),
    flags: z.array(z.enum(EXPENSE_LINE_FLAGS)),
  })
  .meta({ id: 'ExpenseLine' });
export type ExpenseLine = z.infer<typeof expenseLineSchema>;

export const expenseReportDetailSchema = z
  .object({
    ...expenseReportSummarySchema.shape,
    lines: z.array(expenseLineSchema),
    /** The step waiting for approvals (who may approve, how many more must), or null. */
    pending: z.object({ step: z.string(), approvers: z.array(person), needed: z.number().int() }).nullable(),
    /** True while submitted and nobody can take the next step (an administrator reroutes it). */
    unroutable: z.boolean(),
    history: z.array(
      z.object({
        action: z.enum(['submitted', 'held', 'resubmitted', 'approved', 'sentBack', 'rerouted']),
        by: person.nullable(),
        target: person.nullable(),
        note: z.string(),
        at: z.string(),
      }),
    ),
    /** What the caller may do with it now (the server decides again on every request). */
    may: z.object({
      edit: z.boolean(),
      submit: z.boolean(),
      approve: z.boolean(),
      sendBack: z.boolean(),
      reroute: z.boolean(),
    }),
    /** What the editor offers (the company's active types, mileage and tax rates); null unless the caller edits it. */
    choices: z
      .object({
        types: z.array(
          z.object({
            id: z.number().int(),
            name: z.string(),
            category: z.enum(EXPENSE_CATEGORIES),
            properties: z.array(
              z.object({ label: z.string(), kind: z.enum(EXPENSE_PROPERTY_KINDS), required: z.boolean() }),
            ),
          }),
        ),
        mileageRates: z.array(
          z.object({ id: z.number().int(), name: z.string(), unit: z.enum(MILEAGE_UNITS), rate: z.string() }),
        ),
        taxRates: z.array(z.object({ id: z.number().int(), name: z.string(), rate: z.string() })),
      })
      .nullable(),
    /** The company's policy as the editor needs it; null while the company has none. */
    policy: z
      .object({
        currency: z.string(),
        descriptionMaxLength: z.number().int(),
        workflowInstructions: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'ExpenseReportDetail' });
export type ExpenseReportDetail = z.infer<typeof expenseReportDetailSchema>;

const name = z
  .string({ error: 'expenseReport.name.required' })
  .max(EXPENSE_REPORT_LIMITS.nameMaxLength * 4, { error: 'expenseReport.name.tooLong' });

export const newExpenseReportBodySchema = z.object({
  name,
  /** The report's currency: the policy's when the company has one (then this must match or be absent). */
  currency: z.string().max(3, { error: 'expenseReport.currency.invalid' }).optional(),
});
export type NewExpenseReportBody = z.input<typeof newExpenseReportBodySchema>;

export const expenseReportBodySchema = z.object({ name });
export type ExpenseReportBody = z.input<typeof expenseReportBodySchema>;

/**
 * A line: its kind decides which fields it needs (a card line its transaction, an out-of-pocket line
 * its date and amount, a journey its date, rate and odometer readings); the server names each problem.
 */
export const expenseLineBodySchema = z.object({
  kind: z.enum(EXPENSE_LINE_KINDS, { error: 'expenseLine.kind.invalid' }),
  typeId: z.number({ error: 'expenseLine.type.required' }).int({ error: 'expenseLine.type.required' }),
  description: z.string({ error: 'expenseLine.description.required' }).max(1024, {
    error: 'expenseLine.description.tooLong',
  }),
  transactionId: z.number({ error: 'expenseLine.transaction.required' }).int().optional(),
  date: z.string().max(10, { error: 'date.invalid' }).optional(),
  amount: z.string().max(30, { error: 'money.amount.format' }).optional(),
  mileageRateId: z.number({ error: 'expenseLine.mileageRate.required' }).int().optional(),
  odometerStart: z.number({ error: 'expenseLine.odometer.range' }).optional(),
  odometerEnd: z.number({ error: 'expenseLine.odometer.range' }).optional(),
  taxRateId: z.number({ error: 'expenseLine.taxRate.invalid' }).int().nullable().optional(),
  properties: z
    .record(z.string().max(100), z.string().max(EXPENSE_REPORT_LIMITS.propertyValueMaxLength * 2))
    .default({}),
});
export type ExpenseLineBody = z.input<typeof expenseLineBodySchema>;

export const sendBackBodySchema = z.object({
  note: z
    .string({ error: 'expenseReport.note.required' })
    .max(EXPENSE_REPORT_LIMITS.noteMaxLength * 2, { error: 'expenseReport.note.tooLong' }),
});
export type SendBackBody = z.input<typeof sendBackBodySchema>;

export const rerouteBodySchema = z.object({
  /** The individual approver's user ID (seed 001: rerouting needs an individual approver). */
  userId: z.string({ error: 'expenseReport.reroute.approverRequired' }).max(200),
  note: z
    .string()
    .max(EXPENSE_REPORT_LIMITS.noteMaxLength * 2, { error: 'expenseReport.note.tooLong' })
    .default(''),
});
export type RerouteBody = z.input<typeof rerouteBodySchema>;

export const expenseReportQuerySchema = z.object({
  status: lenient(z.string()).describe(`One of ${EXPENSE_REPORT_STATUSES.join(', ')}`),
  ...keysetQueryFields,
});
export type ExpenseReportQuery = z.infer<typeof expenseReportQuerySchema>;

export const expenseQueueQuerySchema = z.object({ ...keysetQueryFields });

export const expenseLineParamsSchema = z.object({
  id: recordIdParam,
  line: pathText('The line id (a whole number)'),
});

/** A cardholder's card transactions not yet on a report: what a card line may take. */
export const expenseTransactionListSchema = z
  .object({
    rows: z.array(
      z.object({
        id: z.number().int(),
        reference: z.string(),
        transactionDate: z.string(),
        merchantName: z.string(),
        amount: moneySchema,
        maskedNumber: z.string(),
      }),
    ),
    ...keysetPageFields,
  })
  .meta({ id: 'ExpenseTransactionList' });
export type ExpenseTransactionList = z.infer<typeof expenseTransactionListSchema>;
