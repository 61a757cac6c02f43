import { z } from 'zod';
import { EXPENSE_CATEGORIES, EXPENSE_LIMITS, EXPENSE_PROPERTY_KINDS, MILEAGE_UNITS } from '../expenses.ts';
import { moneySchema } from './transactions.ts';

/**
 * Contracts of a company's expense configuration (issue 17 item 1, docs/expenses.md) under
 * `/app/api/org/companies/:number/expense-settings`: one answer with all of it (each part is bounded:
 * 50 types, 50 mileage rates, 10 tax rates, 50 profiles, 20 thresholds), and a route per part to change.
 * Amounts are entered in major units with the currency's decimals and answered as Money.
 */

const text = (max: number, tooLong: string, required: string) =>
  z.string({ error: required }).max(max, { error: tooLong });

export const expensePropertySchema = z.object({
  label: text(200, 'expenseType.properties.labelTooLong', 'expenseType.properties.labelRequired'),
  kind: z.enum(EXPENSE_PROPERTY_KINDS, { error: 'expenseType.properties.kind' }),
  required: z.boolean({ error: 'form.invalid' }).default(false),
});

export const expenseTypeSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    category: z.enum(EXPENSE_CATEGORIES),
    properties: z.array(expensePropertySchema.required()),
    active: z.boolean(),
    /** The policy's limit for lines of this type, if it sets one. */
    limit: moneySchema.nullable(),
    /** Lines of this type need a receipt above this amount (the policy's own, else its general one). */
    receiptAbove: moneySchema.nullable(),
  })
  .meta({ id: 'ExpenseType' });
export type ExpenseType = z.infer<typeof expenseTypeSchema>;

export const expenseTypeBodySchema = z.object({
  name: text(200, 'expenseType.name.tooLong', 'expenseType.name.required'),
  category: z.enum(EXPENSE_CATEGORIES, { error: 'expenseType.category.invalid' }).default('general'),
  properties: z
    .array(expensePropertySchema)
    .max(EXPENSE_LIMITS.propertiesPerType + 1, { error: 'expenseType.properties.tooMany' })
    .default([]),
  active: z.boolean({ error: 'form.invalid' }).default(true),
});
export type ExpenseTypeBody = z.input<typeof expenseTypeBodySchema>;

export const expensePolicySchema = z
  .object({
    currency: z.string(),
    exponent: z.number().int(),
    /** A receipt is required for any line above this amount; null: only where a type's limit says. */
    receiptAbove: moneySchema.nullable(),
    descriptionMaxLength: z.number().int(),
    workflowInstructions: z.string(),
    limits: z.array(
      z.object({
        typeId: z.number().int(),
        limit: moneySchema.nullable(),
        receiptAbove: moneySchema.nullable(),
      }),
    ),
    updatedAt: z.string(),
  })
  .meta({ id: 'ExpensePolicy' });
export type ExpensePolicy = z.infer<typeof expensePolicySchema>;

const amountText = z.string({ error: 'money.amount.format' }).max(40, { error: 'money.amount.format' });
const optionalAmount = amountText.nullable().default(null);

/** `PUT .../expense-settings/policy`: the whole policy (amounts in major units of its currency). */
export const expensePolicyBodySchema = z.object({
  currency: z
    .string({ error: 'expensePolicy.currency.invalid' })
    .max(3, { error: 'expensePolicy.currency.invalid' }),
  receiptAbove: optionalAmount,
  descriptionMaxLength: z
    .number({ error: 'expensePolicy.descriptionMaxLength.range' })
    .int({ error: 'expensePolicy.descriptionMaxLength.range' })
    .default(EXPENSE_LIMITS.descriptionMaxLength.max),
  workflowInstructions: z
    .string({ error: 'form.invalid' })
    .max(EXPENSE_LIMITS.workflowInstructionsMax * 2, { error: 'expensePolicy.workflowInstructions.tooLong' })
    .default(''),
  limits: z
    .array(
      z.object({
        typeId: z.number({ error: 'expensePolicy.limits.type' }).int({ error: 'expensePolicy.limits.type' }),
        limit: optionalAmount,
        receiptAbove: optionalAmount,
      }),
    )
    .max(EXPENSE_LIMITS.typesPerCompany, { error: 'expensePolicy.limits.type' })
    .default([]),
});
export type ExpensePolicyBody = z.input<typeof expensePolicyBodySchema>;

export const mileageRateSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    unit: z.enum(MILEAGE_UNITS),
    currency: z.string(),
    /** Per unit, in major units with up to four decimals (`0.655`). */
    rate: z.string(),
    active: z.boolean(),
  })
  .meta({ id: 'MileageRate' });
export type MileageRate = z.infer<typeof mileageRateSchema>;

export const mileageRateBodySchema = z.object({
  name: text(200, 'mileageRate.name.tooLong', 'mileageRate.name.required'),
  unit: z.enum(MILEAGE_UNITS, { error: 'mileageRate.unit.invalid' }),
  currency: z
    .string({ error: 'mileageRate.currency.invalid' })
    .max(3, { error: 'mileageRate.currency.invalid' }),
  rate: z.string({ error: 'mileageRate.rate.format' }).max(30, { error: 'mileageRate.rate.format' }),
  active: z.boolean({ error: 'form.invalid' }).default(true),
});
export type MileageRateBody = z.input<typeof mileageRateBodySchema>;

export const taxRateSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** Percent with up to three decimals (`8.875`). */
    rate: z.string(),
    active: z.boolean(),
  })
  .meta({ id: 'TaxRate' });
export type TaxRate = z.infer<typeof taxRateSchema>;

export const taxRateBodySchema = z.object({
  name: text(200, 'taxRate.name.tooLong', 'taxRate.name.required'),
  rate: z.string({ error: 'taxRate.rate.format' }).max(30, { error: 'taxRate.rate.format' }),
  active: z.boolean({ error: 'form.invalid' }).default(true),
});
export type TaxRateBody = z.input<typeof taxRateBodySchema>;

export const approverSchema = z.object({ userId: z.string(), name: z.string() });

export const approvalProfileSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** The largest report total its approvers may approve (seed 001: "Approval limit is required"). */
    limit: moneySchema,
    /** Of its approvers, the share who must approve a step routed to the profile as a group. */
    approvalPercentage: z.number().int(),
    approvers: z.array(approverSchema),
    active: z.boolean(),
    /** Thresholds route to it: it cannot be deleted while any does. */
    inUse: z.boolean(),
  })
  .meta({ id: 'ApprovalProfile' });
export type ApprovalProfile = z.infer<typeof approvalProfileSchema>;

export const approvalProfileBodySchema = z.object({
  name: text(200, 'approvalProfile.name.tooLong', 'approvalProfile.name.required'),
  limit: z.string({ error: 'approvalProfile.limit.required' }).max(40, { error: 'money.amount.format' }),
  currency: z
    .string({ error: 'approvalProfile.currency.invalid' })
    .max(3, { error: 'approvalProfile.currency.invalid' }),
  approvalPercentage: z
    .number({ error: 'approvalProfile.percentage.range' })
    .int({ error: 'approvalProfile.percentage.range' })
    .default(100),
  approvers: z
    .array(z.string().max(64, { error: 'approvalProfile.approvers.unknown' }))
    .max(EXPENSE_LIMITS.profileMembersMax + 1, { error: 'approvalProfile.approvers.tooMany' })
    .default([]),
  active: z.boolean({ error: 'form.invalid' }).default(true),
});
export type ApprovalProfileBody = z.input<typeof approvalProfileBodySchema>;

export const approvalThresholdSchema = z
  .object({
    id: z.number().int(),
    /** Reports whose total is above it need a step approved by the profile. */
    amount: moneySchema,
    profileId: z.number().int(),
    profileName: z.string(),
  })
  .meta({ id: 'ApprovalThreshold' });
export type ApprovalThreshold = z.infer<typeof approvalThresholdSchema>;

export const approvalThresholdBodySchema = z.object({
  amount: z.string({ error: 'money.amount.format' }).max(40, { error: 'money.amount.format' }),
  currency: z
    .string({ error: 'approvalThreshold.currency.invalid' })
    .max(3, { error: 'approvalThreshold.currency.invalid' }),
  profileId: z
    .number({ error: 'approvalThreshold.profile.unknown' })
    .int({ error: 'approvalThreshold.profile.unknown' }),
});
export type ApprovalThresholdBody = z.input<typeof approvalThresholdBodySchema>;

/** `GET .../expense-settings`: the company's whole expense configuration. */
export const expenseSettingsSchema = z
  .object({
    company: z.string(),
    types: z.array(expenseTypeSchema),
    policy: expensePolicySchema.nullable(),
    mileageRates: z.array(mileageRateSchema),
    taxRates: z.array(taxRateSchema),
    approvalProfiles: z.array(approvalProfileSchema),
    thresholds: z.array(approvalThresholdSchema),
    canModify: z.boolean(),
    readOnly: z.boolean(),
  })
  .meta({ id: 'ExpenseSettings' });
export type ExpenseSettings = z.infer<typeof expenseSettingsSchema>;
