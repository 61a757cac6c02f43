import { z } from 'zod';
import { CUSTOM_DATE_FORMATS, CUSTOM_FIELD_LIMITS, CUSTOM_FIELD_TYPES } from '../custom-fields.ts';

/**
 * Contracts of a company's custom data fields (`/app/api/org/companies/:number/custom-fields`) and of a
 * transaction's values of them (`/app/api/transactions/:id/custom-fields`), issue 16 item 4.
 */

export const customFieldSchema = z
  .object({
    id: z.number().int(),
    label: z.string(),
    position: z.number().int(),
    type: z.enum(CUSTOM_FIELD_TYPES),
    length: z.number().int(),
    decimals: z.number().int(),
    dateFormat: z.enum(CUSTOM_DATE_FORMATS),
    required: z.boolean(),
    active: z.boolean(),
    values: z.array(z.string()),
    /** Transactions holding a value of it (it cannot be deleted, nor change type, while any does). */
    inUse: z.boolean(),
  })
  .meta({ id: 'CustomField' });
export type CustomField = z.infer<typeof customFieldSchema>;

export const customFieldListSchema = z
  .object({
    rows: z.array(customFieldSchema),
    canModify: z.boolean(),
    readOnly: z.boolean(),
    remaining: z.number().int(),
  })
  .meta({ id: 'CustomFieldList' });
export type CustomFieldList = z.infer<typeof customFieldListSchema>;

/** `POST .../custom-fields`, `PUT .../custom-fields/:id`: the whole definition. */
export const customFieldBodySchema = z.object({
  label: z.string({ error: 'customField.label.required' }).max(200, { error: 'customField.label.tooLong' }),
  type: z.enum(CUSTOM_FIELD_TYPES, { error: 'customField.type.invalid' }),
  length: z
    .number({ error: 'customField.length.textRange' })
    .int({ error: 'customField.length.textRange' })
    .default(80),
  decimals: z
    .number({ error: 'customField.decimals.range' })
    .int({ error: 'customField.decimals.range' })
    .default(0),
  dateFormat: z.enum(CUSTOM_DATE_FORMATS, { error: 'customField.dateFormat.invalid' }).default('YYYY-MM-DD'),
  required: z.boolean({ error: 'form.invalid' }).default(false),
  active: z.boolean({ error: 'form.invalid' }).default(true),
  values: z
    .array(z.string().max(200, { error: 'customField.values.format' }))
    .max(CUSTOM_FIELD_LIMITS.listValuesMax + 1, { error: 'customField.values.tooMany' })
    .default([]),
});
export type CustomFieldBody = z.input<typeof customFieldBodySchema>;

/** A transaction's custom fields: each active field with its value (as the field shows it). */
export const transactionCustomFieldsSchema = z
  .object({
    transactionId: z.number().int(),
    fields: z.array(
      customFieldSchema.omit({ inUse: true, active: true, position: true }).extend({
        /** The value as stored (an exact decimal, an ISO date), null when none. */
        value: z.string().nullable(),
      }),
    ),
    canEdit: z.boolean(),
    blocked: z.string().nullable(),
  })
  .meta({ id: 'TransactionCustomFields' });
export type TransactionCustomFields = z.infer<typeof transactionCustomFieldsSchema>;

/** `PUT /app/api/transactions/:id/custom-fields`: field id → the text entered ('' clears it). */
export const transactionCustomValuesBodySchema = z.object({
  values: z.record(z.string(), z.string().max(300, { error: 'customField.value.tooLong' })),
});
export type TransactionCustomValuesBody = z.infer<typeof transactionCustomValuesBodySchema>;
