import {
  type AccountCoding,
  type AccountCodingBody,
  type AccountingScheme,
  type AccountingSchemeBody,
  type AccountingSchemeList,
  type AccountingSubset,
  type AccountingSubsetBody,
  type AccountingSubsetList,
  accountCodingBodySchema,
  accountingSchemeBodySchema,
  checkSchemeLines,
  customerCodeProblem,
  type GroupScheme,
  type GroupSchemeList,
  isAccountDataReadOnly,
  may,
  type OverrideLevel,
  SCHEME_LIMITS,
  schemeNameProblem,
  valueKeyOf,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import { deleteById, insertRow, updateById } from '../../db/rows.ts';
import { accountingSchemes, accountingSubsets } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, type AuditChanges, auditAdmin } from '../../kernel/audit.ts';
import { type CompanyRef, companyInScope, idOf, lockCompany } from '../accounts/index.ts';
import { type CodeRow, codesOf, findValueByKey } from './repository.ts';
import {
  accountSchemes,
  defaultsOf,
  findGroupOf,
  groupsWithSchemes,
  linesOf,
  replaceDefaults,
  replaceLines,
  replaceSubsetValues,
  type SchemeLineRow,
  type SchemeRow,
  type SubsetRow,
  schemesOf,
  schemeUse,
  setAccountScheme,
  setGroupScheme,
  subsetsOf,
  subsetValues,
  valuesByKey,
} from './schemes-repository.ts';

const invalid = (field: string, key: string, message = 'The form has invalid fields') =>
  new AppError('invalid', key, { message, fieldErrors: { [field]: key } });
const conflict = (key: string, message: string) => new AppError('conflict', key, { message });
const notFound = (what: 'accountingScheme' | 'accountingSubset' | 'account' | 'accountGroup') =>
  new AppError('notFound', `${what}.notFound`, { message: `No such ${what}` });

/** The scheme that codes an account: its own, else its group's, else the company's default. */
export function schemeInEffect(
  ref: { ownSchemeId: number | null; groupSchemeId: number | null },
  defaultId: number | null,
): { id: number | null; source: AccountCoding['source'] } {
  if (ref.ownSchemeId !== null) return { id: ref.ownSchemeId, source: 'account' };
  if (ref.groupSchemeId !== null) return { id: ref.groupSchemeId, source: 'group' };
  if (defaultId !== null) return { id: defaultId, source: 'default' };
  return { id: null, source: 'none' };
}

/**
 * Accounting schemes and subsets, and which scheme codes each account (issue 16 item 2,
 * docs/accounting.md): in the caller's company scope, changed by the company's administrators with the
 * company row locked, each change audited; a scheme or subset in use is refused deletion with the
 * catalogue's "Cannot delete …".
 */
export class AccountingSchemeService {
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
    entity: string,
    entityId: string,
    changes: AuditChanges | undefined,
    ip: string,
    detail: Record<string, unknown>,
  ) {
    return auditAdmin(db, event, { actor: caller, entity, entityId, subjectPk: null, changes, ip, detail });
  }

  private checkName(name: string, what: 'accountingScheme' | 'accountingSubset'): string {
    const clean = name.trim();
    const problem = schemeNameProblem(clean, what);
    if (problem) throw invalid('name', problem);
    return clean;
  }

  // ---- Subsets ----

  private async subsetAnswers(
    db: Executor,
    rows: readonly SubsetRow[],
    codes: readonly CodeRow[],
    companyId: number,
  ) {
    const values = await subsetValues(
      db,
      rows.map((r) => r.id),
    );
    const schemes = await schemesOf(db, companyId);
    const lines = await linesOf(
      db,
      schemes.map((s) => s.id),
    );
    return rows.map(
      (row): AccountingSubset => ({
        id: row.id,
        name: row.name,
        code: { id: row.codeId, name: codes.find((c) => c.id === row.codeId)?.name ?? '' },
        values: values.filter((v) => v.subsetId === row.id).map(({ subsetId: _s, ...v }) => v),
        usedBy: schemes
          .filter((s) => lines.some((l) => l.schemeId === s.id && l.subsetId === row.id))
          .map((s) => s.name),
      }),
    );
  }

  async listSubsets(caller: Caller, number: string): Promise<AccountingSubsetList> {
    const company = await companyInScope(this.db, caller, number);
    const rows = await subsetsOf(this.db, company.id);
    const codes = await codesOf(this.db, company.id);
    return { rows: await this.subsetAnswers(this.db, rows, codes, company.id), ...this.flags(caller) };
  }

  /** The subset's checked name, code and value ids (every customer code one of the code's values). */
  private async subsetInput(
    tx: Executor,
    company: CompanyRef,
    body: AccountingSubsetBody,
    exceptId?: number,
  ) {
    const name = this.checkName(body.name, 'accountingSubset');
    const codes = await codesOf(tx, company.id);
    const code = codes.find((c) => c.id === body.codeId);
    if (!code || code.kind !== 'list') throw invalid('codeId', 'accountingSubset.code.unknown');
    const subsets = await subsetsOf(tx, company.id);
    if (subsets.some((s) => s.nameKey === valueKeyOf(name) && s.id !== exceptId))
      throw invalid('name', 'accountingSubset.name.duplicate', 'A subset of this name exists');
    const keys = [...new Set(body.values.map((v) => valueKeyOf(v.trim())).filter((v) => v !== ''))];
    if (keys.length === 0) throw invalid('values', 'accountingSubset.values.required');
    if (keys.length > SCHEME_LIMITS.valuesPerSubset)
      throw invalid('values', 'accountingSubset.values.tooMany');
    const found = await valuesByKey(tx, code.id, keys);
    const unknown = keys.filter((k) => !found.has(k));
    if (unknown.length > 0)
      // The catalogue's text, then the codes it means (at most 10).
      throw new AppError('invalid', 'accountingSubset.values.unknown', {
        message: `Not values of ${code.name}`,
        fieldErrors: { values: 'accountingSubset.values.unknown' },
        detail: unknown.slice(0, 10).join(', '),
      });
    return { name, code, subsets, valueIds: keys.map((k) => found.get(k) as number) };
  }

  async createSubset(
    caller: Caller,
    number: string,
    body: AccountingSubsetBody,
    ip: string,
  ): Promise<AccountingSubset> {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const input = await this.subsetInput(tx, company, body);
      if (input.subsets.length >= SCHEME_LIMITS.subsetsPerCompany)
        throw conflict(
          'accountingSubset.tooMany',
          `A company has at most ${SCHEME_LIMITS.subsetsPerCompany} subsets`,
        );
      const row = await insertRow(tx, accountingSubsets, {
        companyId: company.id,
        codeId: input.code.id,
        name: input.name,
        nameKey: valueKeyOf(input.name),
      });
      await replaceSubsetValues(tx, row.id, input.valueIds);
      await this.audit(
        tx,
        caller,
        'accountingSubset.created',
        'accountingSubset',
        String(row.id),
        {
          name: { before: null, after: row.name },
          values: { before: null, after: input.valueIds.length },
        },
        ip,
        { company: company.number, code: input.code.name },
      );
      const [answer] = await this.subsetAnswers(tx, [row], [input.code], company.id);
      return answer as AccountingSubset;
    });
  }

  async updateSubset(caller: Caller, number: string, idText: string, body: AccountingSubsetBody, ip: string) {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const current = (await subsetsOf(tx, company.id)).find((s) => s.id === idOf(idText));
      if (!current) throw notFound('accountingSubset');
      const input = await this.subsetInput(tx, company, body, current.id);
      if (input.code.id !== current.codeId) {
        const [used] = await this.subsetAnswers(tx, [current], [input.code], company.id);
        if (used && used.usedBy.length > 0) throw invalid('codeId', 'accountingSubset.code.inUse');
      }
      await updateById(tx, accountingSubsets, current.id, {
        name: input.name,
        nameKey: valueKeyOf(input.name),
        codeId: input.code.id,
      });
      await replaceSubsetValues(tx, current.id, input.valueIds);
      await this.audit(
        tx,
        caller,
        'accountingSubset.updated',
        'accountingSubset',
        String(current.id),
        {
          name: { before: current.name, after: input.name },
          values: { before: null, after: input.valueIds.length },
        },
        ip,
        { company: company.number, code: input.code.name },
      );
      const [answer] = await this.subsetAnswers(
        tx,
        [{ ...current, name: input.name, codeId: input.code.id }],
        [input.code],
        company.id,
      );
      return answer as AccountingSubset;
    });
  }

  async deleteSubset(caller: Caller, number: string, idText: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const current = (await subsetsOf(tx, company.id)).find((s) => s.id === idOf(idText));
      if (!current) throw notFound('accountingSubset');
      const [answer] = await this.subsetAnswers(tx, [current], [], company.id);
      if (answer && answer.usedBy.length > 0)
        throw conflict(
          'accountingSubset.inUse',
          'Cannot delete as there is data associated with this subset.',
        );
      await deleteById(tx, accountingSubsets, current.id);
      await this.audit(
        tx,
        caller,
        'accountingSubset.deleted',
        'accountingSubset',
        String(current.id),
        undefined,
        ip,
        {
          company: company.number,
          name: current.name,
        },
      );
    });
  }

  // ---- Schemes ----

  private async schemeAnswers(
    db: Executor,
    companyId: number,
    rows: readonly SchemeRow[],
  ): Promise<AccountingScheme[]> {
    const codes = await codesOf(db, companyId);
    const subsets = await subsetsOf(db, companyId);
    const lines = await linesOf(
      db,
      rows.map((r) => r.id),
    );
    const use = await schemeUse(db, companyId);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      isDefault: row.isDefault,
      lines: lines
        .filter((l) => l.schemeId === row.id)
        .map((l) => {
          const subset = subsets.find((s) => s.id === l.subsetId);
          return {
            code: { id: l.codeId, name: codes.find((c) => c.id === l.codeId)?.name ?? '' },
            required: l.required,
            override: l.override as OverrideLevel,
            subset: subset ? { id: subset.id, name: subset.name } : null,
          };
        }),
      accounts: use.get(row.id)?.accounts ?? 0,
      groups: use.get(row.id)?.groups ?? 0,
    }));
  }

  async listSchemes(caller: Caller, number: string): Promise<AccountingSchemeList> {
    const company = await companyInScope(this.db, caller, number);
    const rows = await schemesOf(this.db, company.id);
    return { rows: await this.schemeAnswers(this.db, company.id, rows), ...this.flags(caller) };
  }

  private async schemeInput(
    tx: Executor,
    company: CompanyRef,
    input: AccountingSchemeBody,
    exceptId?: number,
  ) {
    const body = accountingSchemeBodySchema.parse(input);
    const name = this.checkName(body.name, 'accountingScheme');
    const schemes = await schemesOf(tx, company.id);
    if (schemes.some((s) => s.nameKey === valueKeyOf(name) && s.id !== exceptId))
      throw invalid('name', 'accountingScheme.name.duplicate', 'A scheme of this name exists');
    const codes = await codesOf(tx, company.id);
    const subsets = await subsetsOf(tx, company.id);
    const check = checkSchemeLines(
      body.lines,
      codes.map((c) => ({
        id: c.id,
        kind: c.kind as 'list' | 'text',
        dependsOn: c.dependsOnId,
        active: c.active,
      })),
      subsets,
    );
    if (check.problem) throw invalid('lines', check.problem);
    if (check.lines.length > 0)
      throw new AppError('invalid', check.lines[0]?.problem ?? 'form.invalid', {
        message: 'The scheme has invalid lines',
        fieldErrors: Object.fromEntries(check.lines.map((p) => [`lines.${p.index}.${p.field}`, p.problem])),
      });
    return { name, body, schemes };
  }

  async createScheme(
    caller: Caller,
    number: string,
    input: AccountingSchemeBody,
    ip: string,
  ): Promise<AccountingScheme> {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const { name, body, schemes } = await this.schemeInput(tx, company, input);
      if (schemes.length >= SCHEME_LIMITS.schemesPerCompany)
        throw conflict(
          'accountingScheme.tooMany',
          `A company has at most ${SCHEME_LIMITS.schemesPerCompany} schemes`,
        );
      if (body.isDefault) await this.clearDefault(tx, schemes);
      const row = await insertRow(tx, accountingSchemes, {
        companyId: company.id,
        name,
        nameKey: valueKeyOf(name),
        isDefault: body.isDefault,
      });
      await replaceLines(tx, row.id, body.lines);
      await this.audit(
        tx,
        caller,
        'accountingScheme.created',
        'accountingScheme',
        String(row.id),
        {
          name: { before: null, after: name },
          isDefault: { before: null, after: body.isDefault },
          lines: { before: null, after: body.lines.length },
        },
        ip,
        { company: company.number },
      );
      const [answer] = await this.schemeAnswers(tx, company.id, [row]);
      return answer as AccountingScheme;
    });
  }

  private async clearDefault(tx: Executor, schemes: readonly SchemeRow[]) {
    for (const scheme of schemes.filter((s) => s.isDefault))
      await updateById(tx, accountingSchemes, scheme.id, { isDefault: false });
  }

  async updateScheme(
    caller: Caller,
    number: string,
    idText: string,
    input: AccountingSchemeBody,
    ip: string,
  ) {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const current = (await schemesOf(tx, company.id)).find((s) => s.id === idOf(idText));
      if (!current) throw notFound('accountingScheme');
      const { name, body, schemes } = await this.schemeInput(tx, company, input, current.id);
      if (body.isDefault && !current.isDefault) await this.clearDefault(tx, schemes);
      const before = await linesOf(tx, [current.id]);
      await updateById(tx, accountingSchemes, current.id, {
        name,
        nameKey: valueKeyOf(name),
        isDefault: body.isDefault,
      });
      await replaceLines(tx, current.id, body.lines);
      const changes: AuditChanges = {};
      if (name !== current.name) changes.name = { before: current.name, after: name };
      if (body.isDefault !== current.isDefault)
        changes.isDefault = { before: current.isDefault, after: body.isDefault };
      const describe = (
        lines: readonly Pick<SchemeLineRow, 'codeId' | 'required' | 'override' | 'subsetId'>[],
      ) =>
        lines
          .map((l) => `${l.codeId}:${l.required ? 'R' : 'O'}:${l.override}:${l.subsetId ?? '-'}`)
          .join(' ');
      if (describe(before) !== describe(body.lines))
        changes.lines = { before: before.length, after: body.lines.length };
      await this.audit(
        tx,
        caller,
        'accountingScheme.updated',
        'accountingScheme',
        String(current.id),
        changes,
        ip,
        {
          company: company.number,
          name,
        },
      );
      const [answer] = await this.schemeAnswers(tx, company.id, [
        { ...current, name, isDefault: body.isDefault },
      ]);
      return answer as AccountingScheme;
    });
  }

  async deleteScheme(caller: Caller, number: string, idText: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const current = (await schemesOf(tx, company.id)).find((s) => s.id === idOf(idText));
      if (!current) throw notFound('accountingScheme');
      const use = (await schemeUse(tx, company.id)).get(current.id);
      if (current.isDefault || (use && use.accounts + use.groups > 0))
        throw conflict(
          'accountingScheme.inUse',
          'Cannot delete as there is data associated with this scheme.',
        );
      await deleteById(tx, accountingSchemes, current.id);
      await this.audit(
        tx,
        caller,
        'accountingScheme.deleted',
        'accountingScheme',
        String(current.id),
        undefined,
        ip,
        {
          company: company.number,
          name: current.name,
        },
      );
    });
  }

  // ---- Assignment ----

  private async scheme(db: Executor, company: CompanyRef, id: number | null): Promise<SchemeRow | null> {
    if (id === null) return null;
    const row = (await schemesOf(db, company.id)).find((s) => s.id === id);
    if (!row) throw invalid('schemeId', 'accountingScheme.notFound');
    return row;
  }

  async accountCoding(
    caller: Caller,
    number: string,
    idText: string,
    db: Executor = this.db,
  ): Promise<AccountCoding> {
    const company = await companyInScope(db, caller, number);
    const id = idOf(idText);
    const ref = id === undefined ? undefined : await accountSchemes(db, company.id, id);
    if (!ref) throw notFound('account');
    const schemes = await schemesOf(db, company.id);
    const effect = schemeInEffect(ref, schemes.find((s) => s.isDefault)?.id ?? null);
    const scheme = schemes.find((s) => s.id === effect.id);
    const own = schemes.find((s) => s.id === ref.ownSchemeId);
    const inheritedId = schemeInEffect(
      { ...ref, ownSchemeId: null },
      schemes.find((s) => s.isDefault)?.id ?? null,
    ).id;
    const inherited = schemes.find((s) => s.id === inheritedId);
    const codes = await codesOf(db, company.id);
    const lines = scheme ? await linesOf(db, [scheme.id]) : [];
    const defaults = await defaultsOf(db, ref.accountId);
    return {
      accountId: ref.accountId,
      ownScheme: own ? { id: own.id, name: own.name } : null,
      inheritedScheme: inherited ? { id: inherited.id, name: inherited.name } : null,
      scheme: scheme ? { id: scheme.id, name: scheme.name } : null,
      source: effect.source,
      defaults: lines.map((line) => {
        const code = codes.find((c) => c.id === line.codeId);
        const value = defaults.find((d) => d.codeId === line.codeId);
        return {
          code: { id: line.codeId, name: code?.name ?? '' },
          kind: (code?.kind ?? 'list') as 'list' | 'text',
          value: value ? (value.text ?? value.value ?? null) : null,
          description: value?.description ?? null,
        };
      }),
      ...this.flags(caller),
    };
  }

  /**
   * Sets an account's own scheme (null: its group's or the default) and its default coding: per code of
   * the scheme in effect, a value of the list code (active, inside the line's subset, under the default of
   * the code it depends on) or the text of a text code. Defaults of codes outside the scheme are dropped.
   */
  async setAccountCoding(
    caller: Caller,
    number: string,
    idText: string,
    input: AccountCodingBody,
    ip: string,
  ) {
    const body = accountCodingBodySchema.parse(input);
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const id = idOf(idText);
      const ref = id === undefined ? undefined : await accountSchemes(tx, company.id, id);
      if (!ref) throw notFound('account');
      await this.scheme(tx, company, body.schemeId);
      const schemes = await schemesOf(tx, company.id);
      const effect = schemeInEffect(
        { ...ref, ownSchemeId: body.schemeId },
        schemes.find((s) => s.isDefault)?.id ?? null,
      );
      const lines = effect.id === null ? [] : await linesOf(tx, [effect.id]);
      const codes = await codesOf(tx, company.id);
      const subsetIds = lines.map((l) => l.subsetId).filter((s): s is number => s !== null);
      const members = await subsetValues(tx, subsetIds);
      const rows: { codeId: number; valueId: number | null; text: string | null }[] = [];
      const chosen = new Map<number, number>();
      const errors: Record<string, string> = {};
      for (const key of Object.keys(body.defaults)) {
        if (!lines.some((l) => String(l.codeId) === key))
          errors[`defaults.${key}`] = 'accountCoding.code.notInScheme';
      }
      // Parents first, so a dependent code's default is checked against its parent's.
      const ordered = [...lines].sort((a, b) => depth(codes, a.codeId) - depth(codes, b.codeId));
      for (const line of ordered) {
        const text = body.defaults[String(line.codeId)]?.trim() ?? '';
        if (text === '') continue;
        const code = codes.find((c) => c.id === line.codeId);
        if (!code) continue;
        const field = `defaults.${line.codeId}`;
        if (code.kind === 'text') {
          const problem = customerCodeProblem(text, code.maxLength);
          if (problem) errors[field] = problem;
          else rows.push({ codeId: code.id, valueId: null, text });
          continue;
        }
        const value = await findValueByKey(tx, code.id, valueKeyOf(text));
        if (!value) errors[field] = 'accountCoding.value.unknown';
        else if (!value.active) errors[field] = 'accountCoding.value.inactive';
        else if (
          line.subsetId !== null &&
          !members.some((m) => m.subsetId === line.subsetId && m.id === value.id)
        )
          errors[field] = 'accountCoding.value.notInSubset';
        else if (code.dependsOnId !== null && value.parentId !== (chosen.get(code.dependsOnId) ?? null))
          errors[field] = 'accountCoding.value.otherParent';
        else {
          chosen.set(code.id, value.id);
          rows.push({ codeId: code.id, valueId: value.id, text: null });
        }
      }
      const first = Object.values(errors)[0];
      if (first)
        throw new AppError('invalid', first, {
          message: 'The default coding has invalid values',
          fieldErrors: errors,
        });
      const before = await this.accountCoding(caller, number, idText, tx);
      await setAccountScheme(tx, ref.accountId, body.schemeId);
      await replaceDefaults(tx, ref.accountId, rows);
      const after = await this.accountCoding(caller, number, idText, tx);
      const changes: AuditChanges = {};
      if ((before.ownScheme?.name ?? null) !== (after.ownScheme?.name ?? null))
        changes.scheme = { before: before.ownScheme?.name ?? null, after: after.ownScheme?.name ?? null };
      const text = (c: AccountCoding) => c.defaults.map((d) => `${d.code.name}=${d.value ?? ''}`).join(', ');
      if (text(before) !== text(after)) changes.defaults = { before: text(before), after: text(after) };
      if (Object.keys(changes).length > 0)
        await this.audit(tx, caller, 'account.codingChanged', 'account', String(ref.accountId), changes, ip, {
          company: company.number,
        });
      return after;
    });
  }

  async listGroups(caller: Caller, number: string): Promise<GroupSchemeList> {
    const company = await companyInScope(this.db, caller, number);
    const schemes = await schemesOf(this.db, company.id);
    const groups = await groupsWithSchemes(this.db, company.id);
    return {
      rows: groups.map((g) => {
        const scheme = schemes.find((s) => s.id === g.schemeId);
        return {
          groupId: g.id,
          name: g.name,
          active: g.active,
          scheme: scheme ? { id: scheme.id, name: scheme.name } : null,
        };
      }),
      ...this.flags(caller),
    };
  }

  async setGroupScheme(
    caller: Caller,
    number: string,
    idText: string,
    schemeId: number | null,
    ip: string,
  ): Promise<GroupScheme> {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      const id = idOf(idText);
      const group = id === undefined ? undefined : await findGroupOf(tx, company.id, id);
      if (!group) throw notFound('accountGroup');
      const scheme = await this.scheme(tx, company, schemeId);
      if ((group.schemeId ?? null) !== schemeId) {
        const schemes = await schemesOf(tx, company.id);
        await setGroupScheme(tx, group.id, schemeId);
        await this.audit(
          tx,
          caller,
          'accountGroup.schemeChanged',
          'accountGroup',
          String(group.id),
          {
            scheme: {
              before: schemes.find((s) => s.id === group.schemeId)?.name ?? null,
              after: scheme?.name ?? null,
            },
          },
          ip,
          { company: company.number, name: group.name },
        );
      }
      return {
        groupId: group.id,
        name: group.name,
        active: group.active,
        scheme: scheme ? { id: scheme.id, name: scheme.name } : null,
      };
    });
  }
}

/** How many codes a code depends on, up its chain. */
function depth(codes: readonly CodeRow[], id: number): number {
  let n = 0;
  const seen = new Set<number>();
  for (let at = codes.find((c) => c.id === id); at?.dependsOnId != null && !seen.has(at.id); n++) {
    seen.add(at.id);
    at = codes.find((c) => c.id === at?.dependsOnId);
  }
  return n;
}
