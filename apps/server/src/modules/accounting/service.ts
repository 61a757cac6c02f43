import {
  ACCOUNTING_LIMITS,
  type AccountingCode,
  type AccountingCodeList,
  type AccountingCodePatch,
  type AccountingValue,
  type AccountingValueList,
  type AccountingValuePatch,
  checkSearchCriteria,
  codeLengthProblem,
  codeNameProblem,
  customerCodeProblem,
  dependencyProblem,
  effectiveEntry,
  isAccountDataReadOnly,
  LIMITS,
  may,
  type NewAccountingCodeBody,
  type NewAccountingValueBody,
  newAccountingCodeBodySchema,
  newAccountingValueBodySchema,
  valueDescriptionProblem,
  valueKeyOf,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, type AuditChanges, auditAdmin } from '../../kernel/audit.ts';
import { type CompanyRef, companyInScope, idOf, lockCompany } from '../accounts/index.ts';
import {
  type CodeRow,
  codeNameTaken,
  codesOf,
  countValues,
  deleteCode,
  deleteValue,
  findCode,
  findValue,
  findValueByKey,
  insertCode,
  insertValue,
  lockCode,
  pageOfValues,
  renumberCodes,
  updateCode,
  updateValue,
  type ValueWithParent,
  valueHasDependants,
} from './repository.ts';
import { codeReferenced, valueReferenced } from './schemes-repository.ts';

const invalid = (field: string, key: string, message = 'The accounting code has invalid fields') =>
  new AppError('invalid', key, { message, fieldErrors: { [field]: key } });
const conflict = (key: string, message: string) => new AppError('conflict', key, { message });
const notFound = (what: 'accountingCode' | 'accountingValue') =>
  new AppError('notFound', `${what}.notFound`, { message: `No such ${what}` });

function toCode(row: CodeRow, all: readonly CodeRow[]): AccountingCode {
  const parent = row.dependsOnId === null ? undefined : all.find((code) => code.id === row.dependsOnId);
  const kind = row.kind as AccountingCode['kind'];
  const entry = row.entry as AccountingCode['entry'];
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    kind,
    entry,
    effectiveEntry: effectiveEntry({ kind, entry }, row.valueCount),
    maxLength: row.maxLength,
    dependsOn: parent ? { id: parent.id, name: parent.name } : null,
    active: row.active,
    valueCount: row.valueCount,
  };
}

const toValue = (row: ValueWithParent): AccountingValue => ({
  id: row.id,
  value: row.value,
  description: row.description,
  parent:
    row.parentId !== null
      ? { id: row.parentId, value: row.parentValue ?? '', description: row.parentDescription ?? '' }
      : null,
  active: row.active,
});

/** The nodes the dependency rules look at. */
const nodes = (codes: readonly CodeRow[]) =>
  codes.map((code) => ({ id: code.id, kind: code.kind as 'list' | 'text', dependsOn: code.dependsOnId }));

/**
 * A company's accounting codes and their values (issue 16 item 1, docs/accounting.md): in the caller's
 * company scope (404 outside it), changed by the company's administrators (the route's action), each
 * change in one database transaction with the company row locked — so two administrators adding the
 * twentieth code, or linking two codes to each other at once, cannot both win — and an audit row.
 */
export class AccountingService {
  constructor(private readonly db: Db) {}

  private flags(caller: Caller) {
    return {
      canModify: may(caller, 'maintainAccountingCodes'),
      readOnly: isAccountDataReadOnly(caller.type),
    };
  }

  private audit(
    db: Executor,
    caller: Caller,
    event: AdminAuditEvent,
    entity: 'accountingCode' | 'accountingValue',
    entityId: string,
    changes: AuditChanges | undefined,
    ip: string,
    detail: Record<string, unknown>,
  ) {
    return auditAdmin(db, event, { actor: caller, entity, entityId, subjectPk: null, changes, ip, detail });
  }

  /** The code a path names, in the company: 404 for an unknown id or another company's. */
  private async code(db: Executor, company: CompanyRef, idText: string): Promise<CodeRow> {
    const id = idOf(idText);
    const row = id === undefined ? undefined : await findCode(db, company.id, id);
    if (!row) throw notFound('accountingCode');
    return row;
  }

  // ---- Codes ----

  async listCodes(caller: Caller, number: string): Promise<AccountingCodeList> {
    const company = await companyInScope(this.db, caller, number);
    const rows = await codesOf(this.db, company.id);
    return {
      rows: rows.map((row) => toCode(row, rows)),
      ...this.flags(caller),
      remaining: Math.max(0, ACCOUNTING_LIMITS.codesPerCompany - rows.length),
    };
  }

  private checkName(name: string): string {
    const clean = name.trim();
    const problem = codeNameProblem(clean);
    if (problem) throw invalid('name', problem);
    return clean;
  }

  async createCode(
    caller: Caller,
    number: string,
    input: NewAccountingCodeBody,
    ip: string,
  ): Promise<AccountingCode> {
    const body = newAccountingCodeBodySchema.parse(input);
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const codes = await codesOf(tx, company.id);
      if (codes.length >= ACCOUNTING_LIMITS.codesPerCompany)
        throw conflict(
          'accountingCode.tooMany',
          `A company has at most ${ACCOUNTING_LIMITS.codesPerCompany} accounting codes`,
        );
      const name = this.checkName(body.name);
      // A list code's values are customer codes (up to 25); only a text code has a length of its own.
      const maxLength = body.kind === 'text' ? body.maxLength : ACCOUNTING_LIMITS.valueMaxLength;
      const lengthProblem = codeLengthProblem(maxLength);
      if (lengthProblem) throw invalid('maxLength', lengthProblem);
      const dependency = dependencyProblem(nodes(codes), {
        id: 0,
        kind: body.kind,
        dependsOn: body.dependsOn,
      });
      if (dependency) throw invalid('dependsOn', dependency);
      if (await codeNameTaken(tx, company.id, valueKeyOf(name)))
        throw invalid('name', 'accountingCode.name.duplicate', 'An accounting code of this name exists');
      const row = await insertCode(tx, {
        companyId: company.id,
        name,
        nameKey: valueKeyOf(name),
        position: codes.length + 1,
        kind: body.kind,
        entry: body.kind === 'text' ? 'entry' : body.entry,
        maxLength,
        dependsOnId: body.dependsOn,
      });
      await this.audit(
        tx,
        caller,
        'accountingCode.created',
        'accountingCode',
        String(row.id),
        {
          name: { before: null, after: row.name },
          kind: { before: null, after: row.kind },
          entry: { before: null, after: row.entry },
          maxLength: { before: null, after: row.maxLength },
          dependsOn: { before: null, after: codes.find((c) => c.id === row.dependsOnId)?.name ?? null },
        },
        ip,
        { company: company.number, name: row.name },
      );
      return toCode(row, [...codes, row]);
    });
  }

  async updateCode(
    caller: Caller,
    number: string,
    idText: string,
    patch: AccountingCodePatch,
    ip: string,
  ): Promise<AccountingCode> {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const current = await this.code(tx, company, idText);
      const codes = await codesOf(tx, company.id);
      const next = { ...current };
      const changes: AuditChanges = {};
      const nameOf = (id: number | null) =>
        id === null ? null : (codes.find((c) => c.id === id)?.name ?? null);

      if (patch.name !== undefined) {
        const name = this.checkName(patch.name);
        if (name !== current.name) {
          if (await codeNameTaken(tx, company.id, valueKeyOf(name), current.id))
            throw invalid('name', 'accountingCode.name.duplicate', 'An accounting code of this name exists');
          next.name = name;
          next.nameKey = valueKeyOf(name);
          changes.name = { before: current.name, after: name };
        }
      }
      if (patch.entry !== undefined && current.kind === 'list' && patch.entry !== current.entry) {
        next.entry = patch.entry;
        changes.entry = { before: current.entry, after: patch.entry };
      }
      if (patch.maxLength !== undefined && patch.maxLength !== current.maxLength) {
        if (current.kind !== 'text') throw invalid('maxLength', 'accountingCode.maxLength.listCode');
        const problem = codeLengthProblem(patch.maxLength);
        if (problem) throw invalid('maxLength', problem);
        next.maxLength = patch.maxLength;
        changes.maxLength = { before: current.maxLength, after: patch.maxLength };
      }
      if (patch.dependsOn !== undefined && patch.dependsOn !== current.dependsOnId) {
        const problem = dependencyProblem(nodes(codes), {
          id: current.id,
          kind: current.kind as 'list' | 'text',
          dependsOn: patch.dependsOn,
        });
        if (problem) throw invalid('dependsOn', problem);
        // A value belongs to a value of the code depended on: the values decide whether it may change.
        // A value belongs to a value of the code depended on: a code's dependency changes while it has none.
        if (current.valueCount > 0)
          throw invalid(
            'dependsOn',
            'accountingCode.dependsOn.hasValues',
            "A code's dependency changes only while it has no values",
          );
        next.dependsOnId = patch.dependsOn;
        changes.dependsOn = { before: nameOf(current.dependsOnId), after: nameOf(patch.dependsOn) };
      }
      if (patch.active !== undefined && patch.active !== current.active) {
        if (!patch.active && codes.some((c) => c.dependsOnId === current.id && c.active))
          throw conflict(
            'accountingCode.hasDependants',
            'Active codes depend on this code: deactivate them first',
          );
        const parentRow = codes.find((c) => c.id === next.dependsOnId);
        if (patch.active && parentRow && !parentRow.active)
          throw conflict('accountingCode.parentInactive', 'The code it depends on is inactive');
        next.active = patch.active;
        changes.active = { before: current.active, after: patch.active };
      }
      let order = codes;
      if (patch.position !== undefined && patch.position !== current.position) {
        if (patch.position < 1 || patch.position > codes.length)
          throw invalid('position', 'accountingCode.position.range');
        const others = codes.filter((c) => c.id !== current.id);
        order = [...others.slice(0, patch.position - 1), current, ...others.slice(patch.position - 1)];
        await renumberCodes(
          tx,
          order.map((c) => c.id),
        );
        changes.position = { before: current.position, after: patch.position };
        next.position = patch.position;
      }
      if (Object.keys(changes).length === 0) return toCode(current, codes);
      await updateCode(tx, current.id, {
        name: next.name,
        nameKey: next.nameKey,
        entry: next.entry,
        maxLength: next.maxLength,
        dependsOnId: next.dependsOnId,
        active: next.active,
      });
      const event: AdminAuditEvent =
        Object.keys(changes).length === 1 && changes.active
          ? next.active
            ? 'accountingCode.reactivated'
            : 'accountingCode.deactivated'
          : 'accountingCode.updated';
      await this.audit(tx, caller, event, 'accountingCode', String(current.id), changes, ip, {
        company: company.number,
        name: next.name,
      });
      const after = codes.map((c) => (c.id === current.id ? next : c));
      return toCode(next, after);
    });
  }

  /**
   * Deletes a code and its values when no other code depends on it; otherwise the catalogue's refusal
   * ("Cannot delete …": deactivate it instead). The codes after it close up.
   */
  async deleteCode(caller: Caller, number: string, idText: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const current = await this.code(tx, company, idText);
      const codes = await codesOf(tx, company.id);
      if (codes.some((c) => c.dependsOnId === current.id) || (await codeReferenced(tx, current.id)))
        throw conflict(
          'accountingCode.inUse',
          'Cannot delete as there is data associated with this accounting code.',
        );
      await deleteCode(tx, current.id);
      await renumberCodes(
        tx,
        codes.filter((c) => c.id !== current.id).map((c) => c.id),
      );
      await this.audit(
        tx,
        caller,
        'accountingCode.deleted',
        'accountingCode',
        String(current.id),
        undefined,
        ip,
        {
          company: company.number,
          name: current.name,
          values: current.valueCount,
        },
      );
    });
  }

  // ---- Values ----

  async listValues(
    caller: Caller,
    number: string,
    idText: string,
    query: {
      q?: string | undefined;
      parent?: string | undefined;
      status?: 'active' | 'inactive' | undefined;
      after?: string | undefined;
      before?: string | undefined;
    },
  ): Promise<AccountingValueList> {
    const company = await companyInScope(this.db, caller, number);
    const row = await this.code(this.db, company, idText);
    const codes = await codesOf(this.db, company.id);
    const q = query.q?.trim() ?? '';
    if (q !== '') {
      const problem = checkSearchCriteria(q);
      if (problem) throw invalid('q', problem, 'Search criteria must be 2 to 100 characters');
    }
    let parentId: number | undefined;
    if (query.parent !== undefined && query.parent !== '') {
      parentId = idOf(query.parent);
      if (parentId === undefined) throw invalid('parent', 'accountingValue.parent.unknown');
    }
    const pageSize = LIMITS.searchPageSize;
    const base = { code: toCode(row, codes), pageSize, ...this.flags(caller) };
    // Seed 001 §9: past 10,000 values a code's values are searched, not listed.
    if (q === '' && parentId === undefined && row.valueCount > ACCOUNTING_LIMITS.listedValuesMax)
      return { ...base, rows: [], nextCursor: null, prevCursor: null, searchRequired: true };
    const page = await pageOfValues(
      this.db,
      row.id,
      {
        prefix: q === '' ? undefined : valueKeyOf(q),
        parentId,
        active: query.status === undefined ? undefined : query.status === 'active',
      },
      { after: query.after, before: query.before, limit: pageSize },
    );
    return {
      ...base,
      rows: page.rows.map(toValue),
      nextCursor: page.nextCursor,
      prevCursor: page.prevCursor,
      searchRequired: false,
    };
  }

  async createValue(
    caller: Caller,
    number: string,
    idText: string,
    input: NewAccountingValueBody,
    ip: string,
  ): Promise<AccountingValue> {
    const body = newAccountingValueBodySchema.parse(input);
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      const code = await this.code(tx, company, idText);
      // The code's row lock serialises its values' count and uniqueness checks.
      await lockCode(tx, code.id);
      const fresh = (await findCode(tx, company.id, code.id)) ?? code;
      if (fresh.kind !== 'list')
        throw conflict('accountingCode.textHasNoValues', 'A text code is typed freely: it keeps no values');
      const value = body.value.trim();
      const valueProblem = customerCodeProblem(value);
      if (valueProblem) throw invalid('value', valueProblem, 'The value has invalid fields');
      const description = body.description.trim();
      const descriptionProblem = valueDescriptionProblem(description);
      if (descriptionProblem)
        throw invalid('description', descriptionProblem, 'The value has invalid fields');
      let parentId: number | null = null;
      let parentValue: ValueWithParent | undefined;
      const parentText = body.parent?.trim() ?? '';
      if (fresh.dependsOnId === null) {
        if (parentText !== '') throw invalid('parent', 'accountingValue.parent.notDependent');
      } else {
        if (parentText === '') throw invalid('parent', 'accountingValue.parent.required');
        const found = await findValueByKey(tx, fresh.dependsOnId, valueKeyOf(parentText));
        if (!found) throw invalid('parent', 'accountingValue.parent.unknown');
        parentId = found.id;
        parentValue = { ...found, parentValue: null, parentDescription: null };
      }
      if (fresh.valueCount >= ACCOUNTING_LIMITS.valuesPerCode)
        throw conflict(
          'accountingValue.tooMany',
          `A code holds at most ${ACCOUNTING_LIMITS.valuesPerCode} values`,
        );
      if (await findValueByKey(tx, fresh.id, valueKeyOf(value)))
        throw invalid('value', 'accountingValue.value.duplicate', 'The code already has this value');
      const row = await insertValue(tx, {
        codeId: fresh.id,
        value,
        valueKey: valueKeyOf(value),
        description,
        descriptionKey: valueKeyOf(description),
        parentId,
      });
      await countValues(tx, fresh.id, 1);
      await this.audit(
        tx,
        caller,
        'accountingValue.created',
        'accountingValue',
        String(row.id),
        {
          value: { before: null, after: row.value },
          description: { before: null, after: row.description },
          ...(parentValue ? { parent: { before: null, after: parentValue.value } } : {}),
        },
        ip,
        { company: company.number, code: fresh.name, value: row.value },
      );
      return toValue({
        ...row,
        parentValue: parentValue?.value ?? null,
        parentDescription: parentValue?.description ?? null,
      });
    });
  }

  private async value(db: Executor, code: CodeRow, idText: string): Promise<ValueWithParent> {
    const id = idOf(idText);
    const row = id === undefined ? undefined : await findValue(db, code.id, id);
    if (!row) throw notFound('accountingValue');
    return row;
  }

  async updateValue(
    caller: Caller,
    number: string,
    idText: string,
    valueIdText: string,
    patch: AccountingValuePatch,
    ip: string,
  ): Promise<AccountingValue> {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      const code = await this.code(tx, company, idText);
      const current = await this.value(tx, code, valueIdText);
      const next = { ...current };
      const changes: AuditChanges = {};
      if (patch.description !== undefined) {
        const description = patch.description.trim();
        const problem = valueDescriptionProblem(description);
        if (problem) throw invalid('description', problem, 'The value has invalid fields');
        if (description !== current.description) {
          next.description = description;
          next.descriptionKey = valueKeyOf(description);
          changes.description = { before: current.description, after: description };
        }
      }
      if (patch.active !== undefined && patch.active !== current.active) {
        next.active = patch.active;
        changes.active = { before: current.active, after: patch.active };
      }
      if (Object.keys(changes).length === 0) return toValue(current);
      await updateValue(tx, current.id, {
        description: next.description,
        descriptionKey: next.descriptionKey,
        active: next.active,
      });
      const event: AdminAuditEvent =
        Object.keys(changes).length === 1 && changes.active
          ? next.active
            ? 'accountingValue.reactivated'
            : 'accountingValue.deactivated'
          : 'accountingValue.updated';
      await this.audit(tx, caller, event, 'accountingValue', String(current.id), changes, ip, {
        company: company.number,
        code: code.name,
        value: current.value,
      });
      return toValue(next);
    });
  }

  /** Deletes a value no dependent code's value belongs to; otherwise "Cannot delete …" (deactivate it). */
  async deleteValue(
    caller: Caller,
    number: string,
    idText: string,
    valueIdText: string,
    ip: string,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      const code = await this.code(tx, company, idText);
      await lockCode(tx, code.id);
      const current = await this.value(tx, code, valueIdText);
      if ((await valueHasDependants(tx, current.id)) || (await valueReferenced(tx, current.id)))
        throw conflict('accountingValue.inUse', 'Cannot delete as there is data associated with this value.');
      await deleteValue(tx, current.id);
      await countValues(tx, code.id, -1);
      await this.audit(
        tx,
        caller,
        'accountingValue.deleted',
        'accountingValue',
        String(current.id),
        undefined,
        ip,
        {
          company: company.number,
          code: code.name,
          value: current.value,
        },
      );
    });
  }
}
