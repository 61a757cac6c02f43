import {
  ALLOCATION_LIMITS,
  type AllocationBody,
  type AllocationPart,
  allocateByPercent,
  allocationBodySchema,
  type CodingEntry,
  checkAllocationAmounts,
  checkCoding,
  currencyExponent,
  customerCodeProblem,
  isIsoDate,
  type MassAllocation,
  type MassAllocationBody,
  type MassAllocationList,
  massAllocationBodySchema,
  may,
  mayOverride,
  type OfferedValues,
  parseMinorUnits,
  type TransactionAllocation,
} from '@cardportal/domain';
import { eq } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { companies } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { transactionScope } from '../access/index.ts';
import {
  type AccountScheme,
  accountScheme,
  offeredValues,
  resolveValues,
  type SchemeCodeLine,
  valuesById,
} from '../accounting/index.ts';
import { companyInScope, idOf } from '../accounts/index.ts';
import {
  allocationsOf,
  defaultsOfAccounts,
  deleteAllocations,
  findMassAllocation,
  insertAllocations,
  insertMassAllocation,
  insertMassItems,
  type MassTarget,
  markUndone,
  massAllocationsOf,
  massItemsOf,
  type StoredLine,
  type StoredValue,
  schemeIdsOfAccounts,
  targetsByDate,
  targetsById,
} from './allocation-repository.ts';
import { splitLinesOf } from './changes-repository.ts';
import { editBlocked, type FoundTransaction as Found, refuseIfClosed, transactionInScope } from './lookup.ts';

const money = (minor: bigint, currency: string) => ({
  minor: minor.toString(),
  currency,
  exponent: currencyExponent(currency) ?? 2,
});

const entryOf = (v: StoredValue): CodingEntry | undefined =>
  v.valueId !== null ? { valueId: v.valueId } : v.text !== null ? { text: v.text } : undefined;

const toStored = (entries: ReadonlyMap<number, CodingEntry>): StoredValue[] =>
  [...entries].map(([codeId, e]) => ({ codeId, valueId: e.valueId ?? null, text: e.text ?? null }));

/**
 * Cost allocation of one transaction and mass allocation of many (issue 16 item 3, docs/accounting.md):
 * a transaction's whole amount — or each line of its split — booked to codings of the scheme its account
 * takes, by amount or by whole percent, totalling exactly in minor units; each code changed only by the
 * types its scheme line's override level allows. In the caller's transaction scope (404 outside it);
 * never while the transaction is locked or exported. Each change in one database transaction, audited.
 */
export class AllocationService {
  constructor(private readonly db: Db) {}

  /** The parts a transaction is allocated in: the whole (0) or each line of its split. */
  private async parts(db: Executor, row: Found) {
    if (row.splitLines === 0) return [{ splitLine: 0, amount: row.amount, description: '' }];
    return (await splitLinesOf(db, row.id)).map((s) => ({
      splitLine: s.line,
      amount: s.amount,
      description: s.description,
    }));
  }

  async get(caller: Caller, idText: string, db: Executor = this.db): Promise<TransactionAllocation> {
    const row = await transactionInScope(db, caller, idText);
    const scheme = await accountScheme(db, row.companyId, row.accountId);
    const blocked = editBlocked(row) ?? null;
    const canEdit = blocked === null && may(caller, 'allocateTransactions') && scheme.scheme !== null;
    const stored = await allocationsOf(db, [row.id]);
    const names = await valuesById(
      db,
      stored.flatMap((l) => l.values.map((v) => v.valueId).filter((v): v is number => v !== null)),
    );
    const shown = (values: readonly StoredValue[]) =>
      Object.fromEntries(
        values.map((v) => [
          String(v.codeId),
          v.valueId !== null
            ? (names.get(v.valueId) ?? { value: '', description: '' })
            : { value: v.text ?? '', description: '' },
        ]),
      );
    const defaults = Object.fromEntries(
      [...scheme.defaults].map(([codeId, d]) => [
        String(codeId),
        { value: d.value, description: d.description },
      ]),
    );
    const parts = (await this.parts(db, row)).map((part): AllocationPart => {
      const lines = stored.filter((l) => l.splitLine === part.splitLine);
      return {
        splitLine: part.splitLine,
        amount: money(part.amount, row.currency),
        description: part.description,
        source: lines.length > 0 ? 'allocation' : 'default',
        batchId: lines.find((l) => l.batchId !== null)?.batchId ?? null,
        lines:
          lines.length > 0
            ? lines.map((l) => ({
                amount: money(l.amount, row.currency),
                percent: l.percent,
                coding: shown(l.values),
              }))
            : [{ amount: money(part.amount, row.currency), percent: 100, coding: defaults }],
      };
    });
    return {
      transactionId: row.id,
      scheme: scheme.scheme,
      codes: scheme.lines.map((line) => ({
        id: line.codeId,
        name: line.name,
        kind: line.kind,
        entry: line.entry,
        required: line.required,
        override: line.override,
        mayEdit: canEdit && mayOverride(line.override, caller.type),
        dependsOn:
          line.dependsOn !== null && scheme.lines.some((l) => l.codeId === line.dependsOn)
            ? line.dependsOn
            : null,
        maxLength: line.maxLength,
      })),
      parts,
      canEdit,
      blocked,
    };
  }

  /**
   * Allocates one part of a transaction: by amount (major units of its currency) or by whole percent
   * (the remainder on the last line), each line coded by the scheme; `lines: []` goes back to the
   * account's default coding. Every problem is named at its line and code; nothing is written then.
   */
  async set(
    caller: Caller,
    idText: string,
    input: AllocationBody,
    ip: string,
  ): Promise<TransactionAllocation> {
    const body = allocationBodySchema.parse(input);
    return this.db.transaction(async (tx) => {
      const row = await transactionInScope(tx, caller, idText, true);
      refuseIfClosed(row);
      const part = (await this.parts(tx, row)).find((p) => p.splitLine === body.splitLine);
      if (!part)
        throw new AppError('invalid', 'allocation.splitLine.unknown', {
          message: row.splitLines === 0 ? 'The transaction is not split' : 'No such line of the split',
          fieldErrors: { splitLine: 'allocation.splitLine.unknown' },
        });
      const scheme = await accountScheme(tx, row.companyId, row.accountId);
      if (!scheme.scheme)
        throw new AppError('conflict', 'allocation.noScheme', {
          message: "No accounting scheme codes this transaction's card account",
        });
      const stored = (await allocationsOf(tx, [row.id])).filter((l) => l.splitLine === part.splitLine);
      const errors: Record<string, string> = {};
      let amounts: bigint[] = [];
      if (body.lines.length > 0) {
        if (body.mode === 'percent') {
          const result = allocateByPercent(
            part.amount,
            body.lines.map((l) => l.percent ?? Number.NaN),
          );
          if ('problems' in result)
            for (const p of result.problems)
              errors[p.index === undefined ? 'lines' : `lines.${p.index}.percent`] ??= p.problem;
          else amounts = result.amounts;
        } else {
          amounts = body.lines.map((l, index) => {
            const parsed = parseMinorUnits(l.amount ?? '', row.currency);
            if ('minor' in parsed) return parsed.minor;
            errors[`lines.${index}.amount`] = parsed.problem;
            return 0n;
          });
          if (Object.keys(errors).length === 0)
            for (const p of checkAllocationAmounts(part.amount, amounts))
              errors[p.index === undefined ? 'lines' : `lines.${p.index}.amount`] ??= p.problem;
        }
      }
      const texts = new Map<number, string[]>();
      for (const line of body.lines)
        for (const [code, text] of Object.entries(line.coding)) {
          const list = texts.get(Number(code)) ?? [];
          list.push(text);
          texts.set(Number(code), list);
        }
      const resolve = await resolveValues(tx, scheme.lines, texts);
      const defaults = new Map([...scheme.defaults].map(([codeId, d]) => [codeId, d as CodingEntry]));
      const codings = body.lines.map((line, index) => {
        const before = stored[index];
        const previous = before
          ? new Map(
              before.values.flatMap((v) =>
                entryOf(v) ? [[v.codeId, entryOf(v) as CodingEntry] as const] : [],
              ),
            )
          : defaults;
        const checked = checkCoding(
          schemeLinesFor(scheme),
          line.coding,
          resolve,
          previous,
          caller.type,
          customerCodeProblem,
        );
        for (const [code, problem] of Object.entries(checked.problems))
          errors[`lines.${index}.coding.${code}`] ??= problem;
        return checked.entries;
      });
      const first = Object.values(errors)[0];
      if (first)
        throw new AppError('invalid', first, {
          message:
            first === 'allocation.total'
              ? 'Split amount does not total up'
              : 'The allocation has invalid lines',
          fieldErrors: errors,
        });
      await deleteAllocations(tx, [row.id], part.splitLine);
      const lines: StoredLine[] = codings.map((entries, i) => ({
        transactionId: row.id,
        splitLine: part.splitLine,
        position: i + 1,
        amount: amounts[i] as bigint,
        percent: body.mode === 'percent' ? (body.lines[i]?.percent ?? null) : null,
        batchId: null,
        values: toStored(entries),
      }));
      await insertAllocations(tx, lines);
      await auditAdmin(tx, 'transaction.allocated', {
        actor: caller,
        entity: 'transaction',
        entityId: row.reference,
        changes: { lines: { before: stored.length, after: lines.length } },
        ip,
        detail: {
          transactionId: row.id,
          splitLine: part.splitLine,
          currency: row.currency,
          lines: lines.map((l) => ({ amount: l.amount.toString(), percent: l.percent, values: l.values })),
        },
      });
      return this.get(caller, idText, tx);
    });
  }

  /** The values a scheme line offers the transaction's coder: its subset, under the parent's value, by prefix. */
  async offered(
    caller: Caller,
    idText: string,
    query: { code?: string | undefined; q?: string | undefined; parent?: string | undefined },
  ): Promise<OfferedValues> {
    const row = await transactionInScope(this.db, caller, idText);
    const scheme = await accountScheme(this.db, row.companyId, row.accountId);
    const line = scheme.lines.find((l) => String(l.codeId) === query.code && l.kind === 'list');
    if (!line)
      throw new AppError('invalid', 'allocation.code.notInScheme', {
        fieldErrors: { code: 'allocation.code.notInScheme' },
      });
    let parentId: number | undefined;
    if (line.dependsOn !== null && scheme.lines.some((l) => l.codeId === line.dependsOn)) {
      const parentText = query.parent?.trim() ?? '';
      if (parentText === '') return { rows: [], more: false };
      const resolve = await resolveValues(this.db, scheme.lines, new Map([[line.dependsOn, [parentText]]]));
      const parent = resolve(line.dependsOn, parentText);
      if (!parent) return { rows: [], more: false };
      parentId = parent.valueId;
    }
    const q = query.q?.trim() ?? '';
    if ([...q].length > 100)
      throw new AppError('invalid', 'search.tooLong', { fieldErrors: { q: 'search.tooLong' } });
    const limit = 50;
    const rows = await offeredValues(this.db, line, { q: q || undefined, parentId, limit: limit + 1 });
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  // ---- Mass allocation ----

  async listMass(caller: Caller, number: string | undefined): Promise<MassAllocationList> {
    const company = await companyInScope(this.db, caller, number ?? '');
    const rows = await massAllocationsOf(this.db, company.id);
    return { rows: rows.map((r) => toMass(r, company.number)) };
  }

  /**
   * Codes many of a company's transactions alike (by percent), all or nothing: chosen by id, each must
   * be in scope and neither locked, exported nor split; chosen by date range, those are left as they are
   * and counted (`skipped`). Each coded one's account must take the coding by its scheme (with the
   * caller's override levels). A refusal names the transactions (the first 100) and changes nothing;
   * success keeps what each had before, for `undo`.
   */
  async mass(caller: Caller, input: MassAllocationBody, ip: string): Promise<MassAllocation> {
    const body = massAllocationBodySchema.parse(input);
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, body.company);
      const scope = transactionScope(caller);
      let targets: MassTarget[];
      const byRange = body.transactionIds === undefined;
      if (body.transactionIds !== undefined) {
        const ids = [...new Set(body.transactionIds)];
        if (ids.length === 0) throw selection('massAllocation.selection.required');
        targets = await targetsById(tx, company.id, ids, scope);
        const missing = ids.filter((id) => !targets.some((t) => t.id === id));
        if (missing.length > 0)
          throw refusal(
            missing.map((id) => ({
              transactionId: id,
              reference: '',
              problem: 'transactions.notFound',
              code: null,
            })),
            missing.length,
          );
      } else {
        const from = body.from ?? '';
        const to = body.to ?? '';
        if (!isIsoDate(from) || !isIsoDate(to)) throw selection('massAllocation.selection.required');
        if (from > to)
          throw new AppError('invalid', 'dateRange.fromAfterTo', {
            fieldErrors: { to: 'dateRange.fromAfterTo' },
          });
        targets = await targetsByDate(tx, company.id, from, to, scope, ALLOCATION_LIMITS.massMax + 1);
        if (targets.length === 0) throw selection('massAllocation.selection.empty');
      }
      if (targets.length > ALLOCATION_LIMITS.massMax) throw selection('massAllocation.selection.tooMany');
      const percents = body.lines.map((l) => l.percent);
      const check = allocateByPercent(1_000_000n, percents);
      if ('problems' in check) {
        const errors: Record<string, string> = {};
        for (const p of check.problems)
          errors[p.index === undefined ? 'lines' : `lines.${p.index}.percent`] ??= p.problem;
        throw new AppError('invalid', Object.values(errors)[0] as string, { fieldErrors: errors });
      }

      const accountIds = [...new Set(targets.map((t) => t.accountId))];
      const schemeOf = await schemeIdsOfAccounts(tx, company.id, accountIds);
      const defaults = await defaultsOfAccounts(tx, accountIds);
      const previous = await allocationsOf(
        tx,
        targets.map((t) => t.id),
      );
      // One scheme's lines and value lookups serve every account it codes.
      const schemes = new Map<
        number,
        { lines: SchemeCodeLine[]; resolve: Awaited<ReturnType<typeof resolveValues>> }
      >();
      const texts = new Map<number, string[]>();
      for (const line of body.lines)
        for (const [code, text] of Object.entries(line.coding))
          texts.set(Number(code), [...(texts.get(Number(code)) ?? []), text]);
      for (const schemeId of new Set([...schemeOf.values()].filter((s): s is number => s !== null))) {
        const sample = accountIds.find((a) => schemeOf.get(a) === schemeId) as number;
        const scheme = await accountScheme(tx, company.id, sample);
        schemes.set(schemeId, { lines: scheme.lines, resolve: await resolveValues(tx, scheme.lines, texts) });
      }

      const problems: { transactionId: number; reference: string; problem: string; code: string | null }[] =
        [];
      const lines: StoredLine[] = [];
      const items: { transactionId: number; before: unknown }[] = [];
      let count = 0;
      let skipped = 0;
      for (const target of targets) {
        const refuse = (problem: string, code: string | null = null) =>
          problems.push({ transactionId: target.id, reference: target.reference, problem, code });
        const closed = target.exported
          ? 'transactions.edit.exported'
          : target.status === 'Locked'
            ? 'transactions.edit.locked'
            : target.splitLines > 0
              ? 'massAllocation.split'
              : undefined;
        if (closed) {
          // A date range means its open transactions: the others stay as they are, counted. Named
          // transactions must all take it.
          if (byRange) {
            skipped += 1;
            continue;
          }
          refuse(closed);
        }
        const schemeId = schemeOf.get(target.accountId) ?? null;
        const scheme = schemeId === null ? undefined : schemes.get(schemeId);
        if (!scheme) {
          refuse('allocation.noScheme');
          continue;
        }
        const before = previous.filter((l) => l.transactionId === target.id && l.splitLine === 0);
        const prior = before[0]?.values ?? defaults.get(target.accountId) ?? [];
        const priorEntries = new Map(
          prior.flatMap((v) => (entryOf(v) ? [[v.codeId, entryOf(v) as CodingEntry] as const] : [])),
        );
        const shares = allocateByPercent(target.amount, percents);
        if ('problems' in shares) {
          refuse(shares.problems[0]?.problem ?? 'allocation.amount.zero');
          continue;
        }
        const codings = body.lines.map((line) =>
          checkCoding(
            scheme.lines,
            line.coding,
            scheme.resolve,
            priorEntries,
            caller.type,
            customerCodeProblem,
          ),
        );
        const bad = codings.flatMap((c) => Object.entries(c.problems))[0];
        if (bad) {
          refuse(
            bad[1],
            schemes.get(schemeId as number)?.lines.find((l) => String(l.codeId) === bad[0])?.name ?? bad[0],
          );
          continue;
        }
        if (problems.some((p) => p.transactionId === target.id)) continue;
        count += 1;
        items.push({
          transactionId: target.id,
          before: before.map((l) => ({
            position: l.position,
            amount: l.amount.toString(),
            percent: l.percent,
            batchId: l.batchId,
            values: l.values,
          })),
        });
        codings.forEach((coding, i) => {
          lines.push({
            transactionId: target.id,
            splitLine: 0,
            position: i + 1,
            amount: shares.amounts[i] as bigint,
            percent: percents[i] ?? null,
            batchId: null,
            values: toStored(coding.entries),
          });
        });
      }
      if (problems.length > 0) throw refusal(problems.slice(0, 100), problems.length);
      if (count === 0) throw selection('massAllocation.selection.nothingOpen');

      const codeNames = new Map(
        [...schemes.values()].flatMap((s) => s.lines.map((l) => [String(l.codeId), l.name] as const)),
      );
      const applied = body.lines.map((l) => ({
        percent: l.percent,
        coding: Object.fromEntries(
          Object.entries(l.coding)
            .filter(([, text]) => text.trim() !== '')
            .map(([code, text]) => [codeNames.get(code) ?? code, text.trim()]),
        ),
      }));
      const batch = await insertMassAllocation(tx, {
        companyId: company.id,
        byUserPk: caller.accessedBy?.pk ?? caller.userPk,
        byUserId: caller.accessedBy?.userId ?? caller.userId,
        transactions: count,
        skipped,
        coding: applied,
      });
      await insertMassItems(tx, batch.id, items);
      await deleteAllocations(
        tx,
        items.map((i) => i.transactionId),
        0,
      );
      await insertAllocations(
        tx,
        lines.map((l) => ({ ...l, batchId: batch.id })),
      );
      await auditAdmin(tx, 'transactions.massAllocated', {
        actor: caller,
        entity: 'massAllocation',
        entityId: String(batch.id),
        changes: undefined,
        ip,
        detail: { company: company.number, transactions: count, skipped, coding: applied },
      });
      return toMass(batch, company.number);
    });
  }

  /**
   * Undoes a mass allocation as a whole: every transaction it coded gets back what it had before — but
   * only while none has changed since (recoded, split, locked or exported) and it is not undone already;
   * otherwise nothing changes and the refusal names them.
   */
  async undo(caller: Caller, idText: string, ip: string): Promise<MassAllocation> {
    return this.db.transaction(async (tx) => {
      const id = idOf(idText);
      const batch = id === undefined ? undefined : await findMassAllocation(tx, id);
      // In scope: the company is the caller's (else not found, like an unknown id).
      const company = batch ? await this.companyOfBatch(tx, caller, batch.companyId) : undefined;
      if (!batch || !company)
        throw new AppError('notFound', 'massAllocation.notFound', { message: 'No such mass allocation' });
      if (batch.undoneAt !== null)
        throw new AppError('conflict', 'massAllocation.undone', {
          message: 'This mass allocation was undone already',
        });
      const items = await massItemsOf(tx, batch.id);
      const ids = items.map((i) => i.transactionId);
      const targets = await targetsById(tx, batch.companyId, ids, transactionScope(caller));
      const current = await allocationsOf(tx, ids);
      const problems: { transactionId: number; reference: string; problem: string; code: string | null }[] =
        [];
      for (const item of items) {
        const target = targets.find((t) => t.id === item.transactionId);
        const mine = current.filter((l) => l.transactionId === item.transactionId);
        const refuse = (problem: string) =>
          problems.push({
            transactionId: item.transactionId,
            reference: target?.reference ?? '',
            problem,
            code: null,
          });
        if (!target) refuse('transactions.notFound');
        else if (target.exported) refuse('transactions.edit.exported');
        else if (target.status === 'Locked') refuse('transactions.edit.locked');
        else if (mine.length === 0 || mine.some((l) => l.batchId !== batch.id || l.splitLine !== 0))
          refuse('massAllocation.changedSince');
      }
      if (problems.length > 0)
        throw refusal(problems.slice(0, 100), problems.length, 'massAllocation.changedSince', 'conflict');
      await deleteAllocations(tx, ids);
      const restored: StoredLine[] = items.flatMap((item) =>
        (
          item.before as {
            position: number;
            amount: string;
            percent: number | null;
            batchId: number | null;
            values: StoredValue[];
          }[]
        ).map((l) => ({
          transactionId: item.transactionId,
          splitLine: 0,
          position: l.position,
          amount: BigInt(l.amount),
          percent: l.percent,
          batchId: l.batchId,
          values: l.values,
        })),
      );
      await insertAllocations(tx, restored);
      await markUndone(tx, batch.id);
      await auditAdmin(tx, 'transactions.massAllocationUndone', {
        actor: caller,
        entity: 'massAllocation',
        entityId: String(batch.id),
        changes: undefined,
        ip,
        detail: { company: company.number, transactions: items.length },
      });
      return toMass({ ...batch, undoneAt: new Date() }, company.number);
    });
  }

  /** The batch's company if it lies in the caller's scope (looked up by its number, as a path names it). */
  private async companyOfBatch(db: Executor, caller: Caller, companyId: number) {
    const [row] = await db
      .select({ number: companies.number })
      .from(companies)
      .where(eq(companies.id, companyId));
    const number = row?.number;
    if (!number) return undefined;
    try {
      return await companyInScope(db, caller, number);
    } catch {
      return undefined;
    }
  }
}

/** The scheme lines as the coding rules take them (a dependency only on a code in the scheme). */
function schemeLinesFor(scheme: AccountScheme): SchemeCodeLine[] {
  return scheme.lines.map((l) => ({
    ...l,
    dependsOn:
      l.dependsOn !== null && scheme.lines.some((o) => o.codeId === l.dependsOn) ? l.dependsOn : null,
  }));
}

function toMass(
  row: {
    id: number;
    byUserId: string;
    createdAt: Date;
    transactions: number;
    skipped: number;
    coding: unknown;
    undoneAt: Date | null;
  },
  company: string,
): MassAllocation {
  return {
    id: row.id,
    company,
    by: row.byUserId,
    at: row.createdAt.toISOString(),
    transactions: row.transactions,
    skipped: row.skipped,
    coding: row.coding as MassAllocation['coding'],
    undoneAt: row.undoneAt ? row.undoneAt.toISOString() : null,
  };
}

const selection = (key: string) =>
  new AppError('invalid', key, {
    message: 'Choose the transactions to allocate',
    fieldErrors: { selection: key },
  });

function refusal(
  problems: { transactionId: number; reference: string; problem: string; code: string | null }[],
  total: number,
  code = 'massAllocation.refused',
  kind: 'invalid' | 'conflict' = 'invalid',
) {
  return new AppError(kind, code, {
    message: `${total} transaction(s) cannot be allocated so; nothing was changed`,
    extra: { problems, total },
  });
}
