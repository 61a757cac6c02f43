import {
  CUSTOM_FIELD_LIMITS,
  type CustomDateFormat,
  type CustomField,
  type CustomFieldBody,
  type CustomFieldList,
  type CustomFieldType,
  customFieldBodySchema,
  customFieldDefinitionProblems,
  isAccountDataReadOnly,
  may,
  valueKeyOf,
} from '@cardportal/domain';
import { asc, eq, sql } from 'drizzle-orm';
import { type Db, type Executor, queryRows } from '../../db/client.ts';
import { deleteById, insertRow, updateById } from '../../db/rows.ts';
import { customFields, transactionCustomValues } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AuditChanges, auditAdmin, diffChanges } from '../../kernel/audit.ts';
import { companyInScope, idOf, lockCompany } from '../accounts/index.ts';

/**
 * A company's custom data fields (issue 16 item 4, docs/accounting.md "Custom data fields"): defined by
 * its administrators (at most 30; at most 3 of type list), each change audited; a field transactions hold
 * values of cannot be deleted or change type — it is deactivated instead.
 */

export type CustomFieldRow = typeof customFields.$inferSelect;

/** The company's fields in order (the transactions module reads them too, through the index). */
export const customFieldsOf = (db: Executor, companyId: number): Promise<CustomFieldRow[]> =>
  db
    .select()
    .from(customFields)
    .where(eq(customFields.companyId, companyId))
    .orderBy(asc(customFields.position), asc(customFields.id));

async function fieldsInUse(db: Executor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await queryRows<{ field_id: number }>(
    db,
    sql`select distinct field_id from ${transactionCustomValues} where field_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return new Set(rows.map((r) => Number(r.field_id)));
}

const toField = (row: CustomFieldRow, used: ReadonlySet<number>): CustomField => ({
  id: row.id,
  label: row.label,
  position: row.position,
  type: row.type as CustomFieldType,
  length: row.length,
  decimals: row.decimals,
  dateFormat: row.dateFormat as CustomDateFormat,
  required: row.required,
  active: row.active,
  values: row.listValues,
  inUse: used.has(row.id),
});

const invalid = (fieldErrors: Record<string, string>) =>
  new AppError('invalid', Object.values(fieldErrors)[0] as string, {
    message: 'The custom field has invalid fields',
    fieldErrors,
  });

export class CustomFieldService {
  constructor(private readonly db: Db) {}

  async list(caller: Caller, number: string): Promise<CustomFieldList> {
    const company = await companyInScope(this.db, caller, number);
    const rows = await customFieldsOf(this.db, company.id);
    const used = await fieldsInUse(
      this.db,
      rows.map((r) => r.id),
    );
    return {
      rows: rows.map((r) => toField(r, used)),
      canModify: may(caller, 'maintainAccountingCodes'),
      readOnly: isAccountDataReadOnly(caller.type),
      remaining: Math.max(0, CUSTOM_FIELD_LIMITS.fieldsPerCompany - rows.length),
    };
  }

  /** The checked definition; a list's values trimmed, others' emptied; length and decimals by type. */
  private checked(input: CustomFieldBody, others: readonly CustomFieldRow[]) {
    const body = customFieldBodySchema.parse(input);
    const values = body.type === 'list' ? body.values.map((v) => v.trim()).filter((v) => v !== '') : [];
    const def = {
      label: body.label.trim(),
      type: body.type,
      length: body.type === 'text' || body.type === 'number' ? body.length : 80,
      decimals: body.type === 'number' ? body.decimals : 0,
      dateFormat: body.dateFormat,
      required: body.required,
      values,
    };
    const problems = customFieldDefinitionProblems(def);
    if (others.some((o) => o.labelKey === valueKeyOf(def.label)))
      problems.label ??= 'customField.label.duplicate';
    if (
      def.type === 'list' &&
      others.filter((o) => o.type === 'list').length >= CUSTOM_FIELD_LIMITS.listFieldsPerCompany
    )
      problems.type ??= 'customField.type.tooManyLists';
    if (Object.keys(problems).length > 0) throw invalid(problems);
    return { ...def, active: body.active };
  }

  async create(caller: Caller, number: string, input: CustomFieldBody, ip: string): Promise<CustomField> {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const rows = await customFieldsOf(tx, company.id);
      if (rows.length >= CUSTOM_FIELD_LIMITS.fieldsPerCompany)
        throw new AppError('conflict', 'customField.tooMany', {
          message: 'A company has at most 30 custom fields',
        });
      const def = this.checked(input, rows);
      const row = await insertRow(tx, customFields, {
        companyId: company.id,
        label: def.label,
        labelKey: valueKeyOf(def.label),
        position: rows.length + 1,
        type: def.type,
        length: def.length,
        decimals: def.decimals,
        dateFormat: def.dateFormat,
        required: def.required,
        active: def.active,
        listValues: def.values,
      });
      await auditAdmin(tx, 'customField.created', {
        actor: caller,
        entity: 'customField',
        entityId: String(row.id),
        changes: diffChanges(undefined, row, ['label', 'type', 'length', 'decimals', 'required']),
        ip,
        detail: { company: company.number, label: row.label },
      });
      return toField(row, new Set());
    });
  }

  async update(
    caller: Caller,
    number: string,
    idText: string,
    input: CustomFieldBody,
    ip: string,
  ): Promise<CustomField> {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const rows = await customFieldsOf(tx, company.id);
      const current = rows.find((r) => r.id === idOf(idText));
      if (!current)
        throw new AppError('notFound', 'customField.notFound', { message: 'No such custom field' });
      const def = this.checked(
        input,
        rows.filter((r) => r.id !== current.id),
      );
      const used = await fieldsInUse(tx, [current.id]);
      if (used.has(current.id) && def.type !== current.type)
        throw invalid({ type: 'customField.type.inUse' });
      const next = {
        label: def.label,
        labelKey: valueKeyOf(def.label),
        type: def.type,
        length: def.length,
        decimals: def.decimals,
        dateFormat: def.dateFormat,
        required: def.required,
        active: def.active,
        listValues: def.values,
      };
      await updateById(tx, customFields, current.id, next);
      const changes: AuditChanges = diffChanges(current, next, [
        'label',
        'type',
        'length',
        'decimals',
        'required',
        'active',
      ]);
      if (JSON.stringify(current.listValues) !== JSON.stringify(def.values))
        changes.values = { before: current.listValues.length, after: def.values.length };
      await auditAdmin(tx, 'customField.updated', {
        actor: caller,
        entity: 'customField',
        entityId: String(current.id),
        changes,
        ip,
        detail: { company: company.number, label: def.label },
      });
      return toField({ ...current, ...next }, used);
    });
  }

  async delete(caller: Caller, number: string, idText: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const rows = await customFieldsOf(tx, company.id);
      const current = rows.find((r) => r.id === idOf(idText));
      if (!current)
        throw new AppError('notFound', 'customField.notFound', { message: 'No such custom field' });
      if ((await fieldsInUse(tx, [current.id])).size > 0)
        throw new AppError('conflict', 'customField.inUse', {
          message: 'Cannot delete as there is data associated with this custom field.',
        });
      await deleteById(tx, customFields, current.id);
      const rest = rows.filter((r) => r.id !== current.id);
      for (const [i, r] of rest.entries())
        if (r.position !== i + 1) await updateById(tx, customFields, r.id, { position: i + 1 });
      await auditAdmin(tx, 'customField.deleted', {
        actor: caller,
        entity: 'customField',
        entityId: String(current.id),
        changes: undefined,
        ip,
        detail: { company: company.number, label: current.label },
      });
    });
  }
}
