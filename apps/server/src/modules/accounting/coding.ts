import {
  type AccountingCodeKind,
  type AccountingEntryMode,
  type CodingEntry,
  type CodingLine,
  effectiveEntry,
  type OverrideLevel,
  type ResolvedValue,
  valueKeyOf,
} from '@cardportal/domain';
import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accountingSubsetValues, accountingValues } from '../../db/schema.ts';
import { codesOf, startsWith } from './repository.ts';
import { schemeInEffect } from './schemes.ts';
import { accountSchemes, defaultsOf, linesOf, schemesOf } from './schemes-repository.ts';

/**
 * What the transactions module asks of accounting (issue 16 item 3): the scheme that codes an account
 * with its lines and the account's defaults, the values a text names for those lines, and the values a
 * line offers (its subset, under a parent value). Public through the module's index.ts.
 */

export interface SchemeCodeLine extends CodingLine {
  name: string;
  position: number;
  entry: AccountingEntryMode;
  subsetId: number | null;
  active: boolean;
}

export interface AccountScheme {
  scheme: { id: number; name: string } | null;
  lines: SchemeCodeLine[];
  /** The account's default coding, by code id, with each value's text and description. */
  defaults: Map<number, CodingEntry & { value: string; description: string }>;
}

/** The scheme in effect for a card account of the company (its own, its group's, the default), or none. */
export async function accountScheme(
  db: Executor,
  companyId: number,
  accountId: number,
): Promise<AccountScheme> {
  const ref = await accountSchemes(db, companyId, accountId);
  const schemes = await schemesOf(db, companyId);
  const effect = ref ? schemeInEffect(ref, schemes.find((s) => s.isDefault)?.id ?? null) : { id: null };
  const scheme = schemes.find((s) => s.id === effect.id);
  if (!scheme) return { scheme: null, lines: [], defaults: new Map() };
  const codes = await codesOf(db, companyId);
  const lines = (await linesOf(db, [scheme.id])).flatMap((line): SchemeCodeLine[] => {
    const code = codes.find((c) => c.id === line.codeId);
    if (!code) return [];
    const kind = code.kind as AccountingCodeKind;
    return [
      {
        codeId: code.id,
        name: code.name,
        position: line.position,
        kind,
        entry: effectiveEntry({ kind, entry: code.entry as AccountingEntryMode }, code.valueCount),
        required: line.required,
        override: line.override as OverrideLevel,
        // The dependency counts only when the code it depends on is in the scheme (checkSchemeLines keeps it so).
        dependsOn: code.dependsOnId,
        maxLength: code.maxLength,
        subsetId: line.subsetId,
        active: code.active,
      },
    ];
  });
  const defaults = new Map<number, CodingEntry & { value: string; description: string }>();
  for (const d of await defaultsOf(db, accountId)) {
    if (!lines.some((l) => l.codeId === d.codeId)) continue;
    if (d.valueId !== null)
      defaults.set(d.codeId, { valueId: d.valueId, value: d.value ?? '', description: d.description ?? '' });
    else if (d.text !== null) defaults.set(d.codeId, { text: d.text, value: d.text, description: '' });
  }
  return { scheme: { id: scheme.id, name: scheme.name }, lines, defaults };
}

/**
 * The values the texts entered for the scheme's list codes name, as the coding rules need them: for
 * each (code, text) the value of that customer code with whether it is active, offered by the line's
 * subset, and its parent value. One query per code.
 */
export async function resolveValues(
  db: Executor,
  lines: readonly SchemeCodeLine[],
  texts: ReadonlyMap<number, readonly string[]>,
): Promise<(codeId: number, text: string) => ResolvedValue | undefined> {
  const found = new Map<string, ResolvedValue>();
  for (const line of lines) {
    if (line.kind !== 'list') continue;
    const keys = [
      ...new Set((texts.get(line.codeId) ?? []).map((t) => valueKeyOf(t.trim())).filter((k) => k !== '')),
    ];
    if (keys.length === 0) continue;
    const rows = await db
      .select({
        id: accountingValues.id,
        key: accountingValues.valueKey,
        active: accountingValues.active,
        parentId: accountingValues.parentId,
        inSubset:
          line.subsetId === null
            ? sql<boolean>`true`
            : sql<boolean>`exists (select 1 from ${accountingSubsetValues} s where s.subset_id = ${line.subsetId} and s.value_id = ${accountingValues.id})`,
      })
      .from(accountingValues)
      .where(and(eq(accountingValues.codeId, line.codeId), inArray(accountingValues.valueKey, keys)));
    for (const row of rows)
      found.set(`${line.codeId}:${row.key}`, {
        valueId: row.id,
        active: row.active,
        inSubset: Boolean(row.inSubset),
        parentId: row.parentId,
      });
  }
  return (codeId, text) => found.get(`${codeId}:${valueKeyOf(text.trim())}`);
}

/** The customer code and description of values, by id (to show a stored coding). */
export async function valuesById(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, { value: string; description: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: accountingValues.id,
      value: accountingValues.value,
      description: accountingValues.description,
    })
    .from(accountingValues)
    .where(inArray(accountingValues.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { value: r.value, description: r.description }]));
}

/**
 * The active values a scheme line offers (its subset, under `parentId` for a dependent code), whose code
 * or description starts with `q` (any case), in code order — at most `limit`. What a coding form's
 * drop-down or type-ahead shows.
 */
export async function offeredValues(
  db: Executor,
  line: Pick<SchemeCodeLine, 'codeId' | 'subsetId'>,
  query: { q?: string | undefined; parentId?: number | undefined; limit: number },
): Promise<{ id: number; value: string; description: string }[]> {
  const conditions: (SQL | undefined)[] = [
    eq(accountingValues.codeId, line.codeId),
    eq(accountingValues.active, true),
  ];
  if (query.q) {
    const key = valueKeyOf(query.q.trim());
    conditions.push(
      or(startsWith(accountingValues.valueKey, key), startsWith(accountingValues.descriptionKey, key)),
    );
  }
  if (query.parentId !== undefined) conditions.push(eq(accountingValues.parentId, query.parentId));
  if (line.subsetId !== null)
    conditions.push(
      sql`exists (select 1 from ${accountingSubsetValues} s where s.subset_id = ${line.subsetId} and s.value_id = ${accountingValues.id})`,
    );
  return db
    .select({
      id: accountingValues.id,
      value: accountingValues.value,
      description: accountingValues.description,
    })
    .from(accountingValues)
    .where(and(...conditions))
    .orderBy(asc(accountingValues.valueKey))
    .limit(query.limit);
}
