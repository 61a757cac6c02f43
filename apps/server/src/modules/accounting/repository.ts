import { and, asc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { deleteById, insertRow, lockById, updateById } from '../../db/rows.ts';
import { accountingCodes, accountingValues } from '../../db/schema.ts';
import { type Keyset, type KeysetPage, keysetPage, type PageRequest } from '../../kernel/paging.ts';

/** The SQL of a company's accounting codes and their values (issue 16, docs/accounting.md). */

export type CodeRow = typeof accountingCodes.$inferSelect;
export type ValueRow = typeof accountingValues.$inferSelect;

/** A value with its parent's code and description (a dependent code's value). */
export interface ValueWithParent extends ValueRow {
  parentValue: string | null;
  parentDescription: string | null;
}

/** Every code of the company, in ledger order. */
export function codesOf(db: Executor, companyId: number): Promise<CodeRow[]> {
  return db
    .select()
    .from(accountingCodes)
    .where(eq(accountingCodes.companyId, companyId))
    .orderBy(asc(accountingCodes.position), asc(accountingCodes.id));
}

export async function findCode(db: Executor, companyId: number, id: number): Promise<CodeRow | undefined> {
  const [row] = await db
    .select()
    .from(accountingCodes)
    .where(and(eq(accountingCodes.companyId, companyId), eq(accountingCodes.id, id)))
    .limit(1);
  return row;
}

export const insertCode = (db: Executor, values: typeof accountingCodes.$inferInsert) =>
  insertRow(db, accountingCodes, values);
export const updateCode = (db: Executor, id: number, values: Partial<typeof accountingCodes.$inferInsert>) =>
  updateById(db, accountingCodes, id, values);
export const deleteCode = (db: Executor, id: number) => deleteById(db, accountingCodes, id);
export const lockCode = (db: Executor, id: number) => lockById(db, accountingCodes, id);

/** Whether another code of the company already has this name (any case). */
export async function codeNameTaken(
  db: Executor,
  companyId: number,
  nameKey: string,
  exceptId?: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: accountingCodes.id })
    .from(accountingCodes)
    .where(and(eq(accountingCodes.companyId, companyId), eq(accountingCodes.nameKey, nameKey)))
    .limit(1);
  return row !== undefined && row.id !== exceptId;
}

/** Sets each code's position to its place in `ids` (1-based). */
export async function renumberCodes(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const cases = sql.join(
    ids.map((id, i) => sql`when ${id}::int then ${i + 1}::smallint`),
    sql` `,
  );
  await db.execute(
    sql`update ${accountingCodes} set position = case id ${cases} end, updated_at = now()
        where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
}

/** Adds `delta` to the code's count of values (kept with every insert and delete). */
export async function countValues(db: Executor, codeId: number, delta: number): Promise<void> {
  await db
    .update(accountingCodes)
    .set({ valueCount: sql`${accountingCodes.valueCount} + ${delta}` })
    .where(eq(accountingCodes.id, codeId));
}

// ---- Values ----

export async function findValue(
  db: Executor,
  codeId: number,
  id: number,
): Promise<ValueWithParent | undefined> {
  const rows = await valuesWithParent(db)
    .where(and(eq(accountingValues.codeId, codeId), eq(accountingValues.id, id)))
    .limit(1);
  return rows[0];
}

/** The code's value with this customer code, any case. */
export async function findValueByKey(
  db: Executor,
  codeId: number,
  valueKey: string,
): Promise<ValueRow | undefined> {
  const [row] = await db
    .select()
    .from(accountingValues)
    .where(and(eq(accountingValues.codeId, codeId), eq(accountingValues.valueKey, valueKey)))
    .limit(1);
  return row;
}

export const insertValue = (db: Executor, values: typeof accountingValues.$inferInsert) =>
  insertRow(db, accountingValues, values);
export const updateValue = (
  db: Executor,
  id: number,
  values: Partial<typeof accountingValues.$inferInsert>,
) => updateById(db, accountingValues, id, values);
export const deleteValue = (db: Executor, id: number) => deleteById(db, accountingValues, id);

/** Whether a value of a dependent code belongs to this value. */
export async function valueHasDependants(db: Executor, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: accountingValues.id })
    .from(accountingValues)
    .where(eq(accountingValues.parentId, id))
    .limit(1);
  return row !== undefined;
}

const parent = sql`p`;
function valuesWithParent(db: Executor) {
  return db
    .select({
      id: accountingValues.id,
      codeId: accountingValues.codeId,
      value: accountingValues.value,
      valueKey: accountingValues.valueKey,
      description: accountingValues.description,
      descriptionKey: accountingValues.descriptionKey,
      parentId: accountingValues.parentId,
      active: accountingValues.active,
      createdAt: accountingValues.createdAt,
      updatedAt: accountingValues.updatedAt,
      parentValue: sql<string | null>`${parent}.value`,
      parentDescription: sql<string | null>`${parent}.description`,
    })
    .from(accountingValues)
    .leftJoin(sql`${accountingValues} as ${parent}`, sql`${parent}.id = ${accountingValues.parentId}`)
    .$dynamic();
}

/** The list's key: the customer code in capitals (unique in the code), byte order. */
const VALUE_KEYSET: Keyset<ValueWithParent> = {
  list: 'accountingValues',
  keys: [{ expr: accountingValues.valueKey, type: 'text' }],
  direction: 'asc',
  keyOf: (row) => [row.valueKey],
};

/** The smallest text greater than every text starting with `prefix` (byte order), for a range scan. */
function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop() as string;
  return chars.join('') + String.fromCodePoint((last.codePointAt(0) as number) + 1);
}

/** `column` starts with `prefix`, as a range a btree over a `COLLATE "C"` column answers. */
export const startsWith = (
  column: typeof accountingValues.valueKey | typeof accountingValues.descriptionKey,
  prefix: string,
): SQL => and(gte(column, prefix), lt(column, prefixEnd(prefix))) as SQL;

export interface ValueFilter {
  /** The start of the customer code or of the description, in capitals (valueKeyOf). */
  prefix?: string | undefined;
  parentId?: number | undefined;
  active?: boolean | undefined;
}

/** One page of a code's values by key, filtered. */
export function pageOfValues(
  db: Executor,
  codeId: number,
  filter: ValueFilter,
  page: PageRequest,
): Promise<KeysetPage<ValueWithParent>> {
  const conditions: (SQL | undefined)[] = [eq(accountingValues.codeId, codeId)];
  if (filter.prefix)
    conditions.push(
      or(
        startsWith(accountingValues.valueKey, filter.prefix),
        startsWith(accountingValues.descriptionKey, filter.prefix),
      ),
    );
  if (filter.parentId !== undefined) conditions.push(eq(accountingValues.parentId, filter.parentId));
  if (filter.active !== undefined) conditions.push(eq(accountingValues.active, filter.active));
  return keysetPage(VALUE_KEYSET, page, (beyond) => valuesWithParent(db).where(and(...conditions, beyond)));
}
