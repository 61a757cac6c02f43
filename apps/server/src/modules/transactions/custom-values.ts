import {
  type CustomDateFormat,
  type CustomFieldType,
  checkCustomValue,
  formatCustomDate,
  may,
  type TransactionCustomFields,
  type TransactionCustomValuesBody,
} from '@cardportal/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { transactionCustomValues } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { customFieldsOf } from '../accounting/index.ts';
import { editBlocked, refuseIfClosed, transactionInScope } from './lookup.ts';

/** The custom field values of transactions, by transaction id then field id. */
export async function customValuesOf(db: Executor, transactionIds: readonly number[]) {
  const out = new Map<number, Map<number, string>>();
  if (transactionIds.length === 0) return out;
  const rows = await db
    .select()
    .from(transactionCustomValues)
    .where(inArray(transactionCustomValues.transactionId, [...transactionIds]));
  for (const r of rows) {
    const map = out.get(r.transactionId) ?? new Map<number, string>();
    map.set(r.fieldId, r.value);
    out.set(r.transactionId, map);
  }
  return out;
}

/**
 * A transaction's custom data fields (issue 16 item 4): every active field of its company with the
 * value it holds; changed by those who code it (the route's action), each value checked by its field's
 * type (packages/domain checkCustomValue), required fields filled, never while locked or exported — in
 * one database transaction with the row locked, audited.
 */
export class CustomValueService {
  constructor(private readonly db: Db) {}

  async get(caller: Caller, idText: string, db: Executor = this.db): Promise<TransactionCustomFields> {
    const row = await transactionInScope(db, caller, idText);
    const fields = (await customFieldsOf(db, row.companyId)).filter((f) => f.active);
    const values = (await customValuesOf(db, [row.id])).get(row.id) ?? new Map();
    const blocked = editBlocked(row) ?? null;
    return {
      transactionId: row.id,
      fields: fields.map((f) => ({
        id: f.id,
        label: f.label,
        type: f.type as CustomFieldType,
        length: f.length,
        decimals: f.decimals,
        dateFormat: f.dateFormat as CustomDateFormat,
        required: f.required,
        values: f.listValues,
        value: values.get(f.id) ?? null,
      })),
      canEdit: blocked === null && may(caller, 'allocateTransactions') && fields.length > 0,
      blocked,
    };
  }

  async set(
    caller: Caller,
    idText: string,
    body: TransactionCustomValuesBody,
    ip: string,
  ): Promise<TransactionCustomFields> {
    return this.db.transaction(async (tx) => {
      const row = await transactionInScope(tx, caller, idText, true);
      refuseIfClosed(row);
      const fields = (await customFieldsOf(tx, row.companyId)).filter((f) => f.active);
      const before = (await customValuesOf(tx, [row.id])).get(row.id) ?? new Map<number, string>();
      const errors: Record<string, string> = {};
      for (const key of Object.keys(body.values))
        if (!fields.some((f) => String(f.id) === key)) errors[`values.${key}`] = 'customField.notFound';
      const next = new Map<number, string>();
      for (const field of fields) {
        const sent = body.values[String(field.id)];
        // A field not sent keeps its value (still checked when required).
        const text = sent ?? before.get(field.id) ?? '';
        const checked = checkCustomValue(
          {
            type: field.type as CustomFieldType,
            length: field.length,
            decimals: field.decimals,
            dateFormat: field.dateFormat as CustomDateFormat,
            required: field.required,
            values: field.listValues,
          },
          field.type === 'date' && sent === undefined && text !== ''
            ? formatCustomDate(text, field.dateFormat as CustomDateFormat)
            : text,
        );
        if ('problem' in checked) errors[`values.${field.id}`] = checked.problem;
        else if (checked.value !== null) next.set(field.id, checked.value);
      }
      const first = Object.values(errors)[0];
      if (first)
        throw new AppError('invalid', first, {
          message: 'The custom fields have invalid values',
          fieldErrors: errors,
        });
      await tx.delete(transactionCustomValues).where(eq(transactionCustomValues.transactionId, row.id));
      if (next.size > 0)
        await tx
          .insert(transactionCustomValues)
          .values([...next].map(([fieldId, value]) => ({ transactionId: row.id, fieldId, value })));
      const changes: Record<string, { before: unknown; after: unknown }> = {};
      for (const field of fields) {
        const a = before.get(field.id) ?? null;
        const b = next.get(field.id) ?? null;
        if (a !== b) changes[field.label] = { before: a, after: b };
      }
      if (Object.keys(changes).length > 0)
        await auditAdmin(tx, 'transaction.customValuesChanged', {
          actor: caller,
          entity: 'transaction',
          entityId: row.reference,
          changes: { values: { before: before.size, after: next.size } },
          ip,
          detail: { transactionId: row.id, fields: changes },
        });
      return this.get(caller, idText, tx);
    });
  }
}
