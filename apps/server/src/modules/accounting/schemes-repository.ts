import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import {
  accountAccounting,
  accountCodingDefaults,
  accountGroupAccounting,
  accountGroups,
  accountingSchemeLines,
  accountingSchemes,
  accountingSubsets,
  accountingSubsetValues,
  accountingValues,
  accounts,
  allocationValues,
} from '../../db/schema.ts';

/** The SQL of accounting schemes, subsets and their assignment to accounts (issue 16 item 2). */

export type SubsetRow = typeof accountingSubsets.$inferSelect;
export type SchemeRow = typeof accountingSchemes.$inferSelect;
export type SchemeLineRow = typeof accountingSchemeLines.$inferSelect;

export const subsetsOf = (db: Executor, companyId: number): Promise<SubsetRow[]> =>
  db
    .select()
    .from(accountingSubsets)
    .where(eq(accountingSubsets.companyId, companyId))
    .orderBy(asc(accountingSubsets.nameKey));

export async function subsetValues(
  db: Executor,
  subsetIds: readonly number[],
): Promise<{ subsetId: number; id: number; value: string; description: string }[]> {
  if (subsetIds.length === 0) return [];
  return db
    .select({
      subsetId: accountingSubsetValues.subsetId,
      id: accountingValues.id,
      value: accountingValues.value,
      description: accountingValues.description,
    })
    .from(accountingSubsetValues)
    .innerJoin(accountingValues, eq(accountingValues.id, accountingSubsetValues.valueId))
    .where(inArray(accountingSubsetValues.subsetId, [...subsetIds]))
    .orderBy(asc(accountingValues.valueKey));
}

/** The values of the code with these keys (customer codes in capitals): id by key. */
export async function valuesByKey(
  db: Executor,
  codeId: number,
  keys: readonly string[],
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ id: accountingValues.id, key: accountingValues.valueKey })
    .from(accountingValues)
    .where(and(eq(accountingValues.codeId, codeId), inArray(accountingValues.valueKey, [...keys])));
  return new Map(rows.map((row) => [row.key, row.id]));
}

export async function replaceSubsetValues(
  db: Executor,
  subsetId: number,
  valueIds: readonly number[],
): Promise<void> {
  await db.delete(accountingSubsetValues).where(eq(accountingSubsetValues.subsetId, subsetId));
  for (let i = 0; i < valueIds.length; i += 1000) {
    const chunk = valueIds.slice(i, i + 1000);
    await db.insert(accountingSubsetValues).values(chunk.map((valueId) => ({ subsetId, valueId })));
  }
}

export const schemesOf = (db: Executor, companyId: number): Promise<SchemeRow[]> =>
  db
    .select()
    .from(accountingSchemes)
    .where(eq(accountingSchemes.companyId, companyId))
    .orderBy(asc(accountingSchemes.nameKey));

export async function linesOf(db: Executor, schemeIds: readonly number[]): Promise<SchemeLineRow[]> {
  if (schemeIds.length === 0) return [];
  return db
    .select()
    .from(accountingSchemeLines)
    .where(inArray(accountingSchemeLines.schemeId, [...schemeIds]))
    .orderBy(asc(accountingSchemeLines.schemeId), asc(accountingSchemeLines.position));
}

export async function replaceLines(
  db: Executor,
  schemeId: number,
  lines: readonly Omit<SchemeLineRow, 'schemeId' | 'position'>[],
): Promise<void> {
  await db.delete(accountingSchemeLines).where(eq(accountingSchemeLines.schemeId, schemeId));
  if (lines.length === 0) return;
  await db
    .insert(accountingSchemeLines)
    .values(lines.map((line, i) => ({ ...line, schemeId, position: i + 1 })));
}

/** How many accounts and account groups each scheme of the company is assigned to. */
export async function schemeUse(
  db: Executor,
  companyId: number,
): Promise<Map<number, { accounts: number; groups: number }>> {
  const rows = await queryRows<{ scheme_id: number; accounts: number; groups: number }>(
    db,
    sql`select s.id as scheme_id,
          (select count(*)::int from ${accountAccounting} a where a.scheme_id = s.id) as accounts,
          (select count(*)::int from ${accountGroupAccounting} g where g.scheme_id = s.id) as groups
        from ${accountingSchemes} s where s.company_id = ${companyId}`,
  );
  return new Map(
    rows.map((r) => [Number(r.scheme_id), { accounts: Number(r.accounts), groups: Number(r.groups) }]),
  );
}

/** Whether a scheme line, a subset or an account default refers to the value (besides dependants). */
export async function valueReferenced(db: Executor, valueId: number): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(
    db,
    sql`select exists (select 1 from ${accountingSubsetValues} where value_id = ${valueId})
          or exists (select 1 from ${accountCodingDefaults} where value_id = ${valueId})
          or exists (select 1 from ${allocationValues} where value_id = ${valueId}) as used`,
  );
  return Boolean(row?.used);
}

/** Whether a scheme or a subset refers to the code. */
export async function codeReferenced(db: Executor, codeId: number): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(
    db,
    sql`select exists (select 1 from ${accountingSchemeLines} where code_id = ${codeId})
          or exists (select 1 from ${accountingSubsets} where code_id = ${codeId})
          or exists (select 1 from ${allocationValues} where code_id = ${codeId}) as used`,
  );
  return Boolean(row?.used);
}

// ---- Assignment ----

export interface AccountSchemeRef {
  accountId: number;
  groupId: number | null;
  ownSchemeId: number | null;
  groupSchemeId: number | null;
}

/** The account (of the company) with its own scheme and its group's. */
export async function accountSchemes(
  db: Executor,
  companyId: number,
  accountId: number,
): Promise<AccountSchemeRef | undefined> {
  const [row] = await db
    .select({
      accountId: accounts.id,
      groupId: accounts.accountGroupId,
      ownSchemeId: accountAccounting.schemeId,
      groupSchemeId: accountGroupAccounting.schemeId,
    })
    .from(accounts)
    .leftJoin(accountAccounting, eq(accountAccounting.accountId, accounts.id))
    .leftJoin(accountGroupAccounting, eq(accountGroupAccounting.groupId, accounts.accountGroupId))
    .where(and(eq(accounts.companyId, companyId), eq(accounts.id, accountId)))
    .limit(1);
  return row;
}

export async function setAccountScheme(
  db: Executor,
  accountId: number,
  schemeId: number | null,
): Promise<void> {
  if (schemeId === null) await db.delete(accountAccounting).where(eq(accountAccounting.accountId, accountId));
  else
    await db
      .insert(accountAccounting)
      .values({ accountId, schemeId })
      .onConflictDoUpdate({ target: accountAccounting.accountId, set: { schemeId } });
}

/** The company's account groups with their schemes, by name. */
export function groupsWithSchemes(db: Executor, companyId: number) {
  return db
    .select({
      id: accountGroups.id,
      name: accountGroups.name,
      active: accountGroups.active,
      schemeId: accountGroupAccounting.schemeId,
    })
    .from(accountGroups)
    .leftJoin(accountGroupAccounting, eq(accountGroupAccounting.groupId, accountGroups.id))
    .where(eq(accountGroups.companyId, companyId))
    .orderBy(asc(accountGroups.name));
}

export async function findGroupOf(db: Executor, companyId: number, groupId: number) {
  const [row] = await db
    .select({
      id: accountGroups.id,
      name: accountGroups.name,
      active: accountGroups.active,
      schemeId: accountGroupAccounting.schemeId,
    })
    .from(accountGroups)
    .leftJoin(accountGroupAccounting, eq(accountGroupAccounting.groupId, accountGroups.id))
    .where(and(eq(accountGroups.companyId, companyId), eq(accountGroups.id, groupId)))
    .limit(1);
  return row;
}

export async function setGroupScheme(db: Executor, groupId: number, schemeId: number | null): Promise<void> {
  if (schemeId === null)
    await db.delete(accountGroupAccounting).where(eq(accountGroupAccounting.groupId, groupId));
  else
    await db
      .insert(accountGroupAccounting)
      .values({ groupId, schemeId })
      .onConflictDoUpdate({ target: accountGroupAccounting.groupId, set: { schemeId } });
}

export async function defaultsOf(db: Executor, accountId: number) {
  return db
    .select({
      codeId: accountCodingDefaults.codeId,
      valueId: accountCodingDefaults.valueId,
      text: accountCodingDefaults.text,
      value: accountingValues.value,
      description: accountingValues.description,
    })
    .from(accountCodingDefaults)
    .leftJoin(accountingValues, eq(accountingValues.id, accountCodingDefaults.valueId))
    .where(eq(accountCodingDefaults.accountId, accountId));
}

export async function replaceDefaults(
  db: Executor,
  accountId: number,
  rows: readonly { codeId: number; valueId: number | null; text: string | null }[],
): Promise<void> {
  await db.delete(accountCodingDefaults).where(eq(accountCodingDefaults.accountId, accountId));
  if (rows.length > 0)
    await db.insert(accountCodingDefaults).values(rows.map((row) => ({ accountId, ...row })));
}
