import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.ts';
import {
  accountAccounting,
  accountCodingDefaults,
  accountGroupAccounting,
  accountingSchemes,
  accounts,
  allocationValues,
  massAllocationItems,
  massAllocations,
  transactionAllocations,
  transactions,
} from '../../db/schema.ts';

/** The SQL of transactions' cost allocations and of mass allocations (issue 16 item 3, docs/accounting.md). */

export interface StoredValue {
  codeId: number;
  valueId: number | null;
  text: string | null;
}

export interface StoredLine {
  transactionId: number;
  splitLine: number;
  position: number;
  amount: bigint;
  percent: number | null;
  batchId: number | null;
  values: StoredValue[];
}

/** The allocation lines of transactions (all their parts), in order, with their values. */
export async function allocationsOf(db: Executor, transactionIds: readonly number[]): Promise<StoredLine[]> {
  if (transactionIds.length === 0) return [];
  const lines = await db
    .select()
    .from(transactionAllocations)
    .where(inArray(transactionAllocations.transactionId, [...transactionIds]))
    .orderBy(
      asc(transactionAllocations.transactionId),
      asc(transactionAllocations.splitLine),
      asc(transactionAllocations.position),
    );
  if (lines.length === 0) return [];
  const values = await db
    .select()
    .from(allocationValues)
    .where(
      inArray(
        allocationValues.allocationId,
        lines.map((l) => l.id),
      ),
    );
  const byLine = new Map<number, StoredValue[]>();
  for (const v of values) {
    const list = byLine.get(v.allocationId) ?? [];
    list.push({ codeId: v.codeId, valueId: v.valueId, text: v.text });
    byLine.set(v.allocationId, list);
  }
  return lines.map((l) => ({
    transactionId: l.transactionId,
    splitLine: l.splitLine,
    position: l.position,
    amount: l.amount,
    percent: l.percent,
    batchId: l.batchId,
    values: byLine.get(l.id) ?? [],
  }));
}

/** Deletes the allocation of transactions' parts (`splitLine` undefined: every part). */
export async function deleteAllocations(db: Executor, transactionIds: readonly number[], splitLine?: number) {
  if (transactionIds.length === 0) return;
  await db
    .delete(transactionAllocations)
    .where(
      and(
        inArray(transactionAllocations.transactionId, [...transactionIds]),
        splitLine === undefined ? undefined : eq(transactionAllocations.splitLine, splitLine),
      ),
    );
}

/**
 * Writes allocation lines (their parts' old lines already deleted) in two statements, however many:
 * the lines through unnest arrays, then their values the same way.
 */
export async function insertAllocations(db: Executor, lines: readonly StoredLine[]): Promise<void> {
  if (lines.length === 0) return;
  for (let start = 0; start < lines.length; start += 20_000) {
    const chunk = lines.slice(start, start + 20_000);
    const inserted = await queryRows<{ id: string | number; t: string | number; s: number; p: number }>(
      db,
      sql`insert into ${transactionAllocations} (transaction_id, split_line, position, amount, percent, batch_id)
          select * from unnest(
            ${`{${chunk.map((l) => l.transactionId).join(',')}}`}::bigint[],
            ${`{${chunk.map((l) => l.splitLine).join(',')}}`}::smallint[],
            ${`{${chunk.map((l) => l.position).join(',')}}`}::smallint[],
            ${`{${chunk.map((l) => l.amount.toString()).join(',')}}`}::bigint[],
            ${`{${chunk.map((l) => l.percent ?? 'NULL').join(',')}}`}::smallint[],
            ${`{${chunk.map((l) => l.batchId ?? 'NULL').join(',')}}`}::integer[])
          returning id, transaction_id as t, split_line as s, position as p`,
    );
    const idOf = new Map(inserted.map((r) => [`${r.t}:${r.s}:${r.p}`, Number(r.id)]));
    const allocationIds: number[] = [];
    const codeIds: number[] = [];
    const valueIds: (number | null)[] = [];
    const texts: (string | null)[] = [];
    chunk.forEach((line) => {
      const id = idOf.get(`${line.transactionId}:${line.splitLine}:${line.position}`) as number;
      for (const v of line.values) {
        allocationIds.push(id);
        codeIds.push(v.codeId);
        valueIds.push(v.valueId);
        texts.push(v.text);
      }
    });
    if (allocationIds.length === 0) continue;
    await db.execute(
      sql`insert into ${allocationValues} (allocation_id, code_id, value_id, text)
          select * from unnest(${`{${allocationIds.join(',')}}`}::bigint[], ${`{${codeIds.join(',')}}`}::integer[],
            ${`{${valueIds.map((v) => v ?? 'NULL').join(',')}}`}::integer[],
            array(select x from jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) with ordinality as e(x, n) order by n))`,
    );
  }
}

/**
 * Each account's scheme id in effect (its own, its group's, else the company default) for the
 * transactions' accounts, in one query.
 */
export async function schemeIdsOfAccounts(
  db: Executor,
  companyId: number,
  accountIds: readonly number[],
): Promise<Map<number, number | null>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .select({
      accountId: accounts.id,
      schemeId: sql<number | null>`coalesce(${accountAccounting.schemeId}, ${accountGroupAccounting.schemeId},
        (select s.id from ${accountingSchemes} s where s.company_id = ${companyId} and s.is_default))`,
    })
    .from(accounts)
    .leftJoin(accountAccounting, eq(accountAccounting.accountId, accounts.id))
    .leftJoin(accountGroupAccounting, eq(accountGroupAccounting.groupId, accounts.accountGroupId))
    .where(inArray(accounts.id, [...accountIds]));
  return new Map(rows.map((r) => [r.accountId, r.schemeId === null ? null : Number(r.schemeId)]));
}

/** The default coding of accounts, by account id. */
export async function defaultsOfAccounts(db: Executor, accountIds: readonly number[]) {
  const out = new Map<number, StoredValue[]>();
  if (accountIds.length === 0) return out;
  const rows = await db
    .select()
    .from(accountCodingDefaults)
    .where(inArray(accountCodingDefaults.accountId, [...accountIds]));
  for (const r of rows) {
    const list = out.get(r.accountId) ?? [];
    list.push({ codeId: r.codeId, valueId: r.valueId, text: r.text });
    out.set(r.accountId, list);
  }
  return out;
}

export interface MassTarget {
  id: number;
  reference: string;
  accountId: number;
  amount: bigint;
  currency: string;
  status: string;
  exported: boolean;
  splitLines: number;
}

const targetColumns = {
  id: transactions.id,
  reference: transactions.reference,
  accountId: transactions.accountId,
  amount: transactions.amount,
  currency: transactions.currency,
  status: transactions.status,
  exported: sql<boolean>`${transactions.exportedAt} is not null`,
  splitLines: transactions.splitLines,
};

/** The company's transactions among `ids` inside the caller's scope (`scope`), locked for the change. */
export function targetsById(
  db: Executor,
  companyId: number,
  ids: readonly number[],
  scope: ReturnType<typeof sql>,
) {
  return db
    .select(targetColumns)
    .from(transactions)
    .where(and(eq(transactions.companyId, companyId), inArray(transactions.id, [...ids]), scope))
    .orderBy(asc(transactions.id))
    .for('update', { of: transactions }) as unknown as Promise<MassTarget[]>;
}

/** The company's transactions dated from … to inside the caller's scope, at most `limit`, locked. */
export function targetsByDate(
  db: Executor,
  companyId: number,
  from: string,
  to: string,
  scope: ReturnType<typeof sql>,
  limit: number,
) {
  return db
    .select(targetColumns)
    .from(transactions)
    .where(
      and(
        eq(transactions.companyId, companyId),
        sql`${transactions.transactionDate} between ${from}::date and ${to}::date`,
        scope,
      ),
    )
    .orderBy(asc(transactions.id))
    .limit(limit)
    .for('update', { of: transactions }) as unknown as Promise<MassTarget[]>;
}

export const insertMassAllocation = async (db: Executor, values: typeof massAllocations.$inferInsert) => {
  const [row] = await db.insert(massAllocations).values(values).returning();
  if (!row) throw new Error('mass allocation not inserted');
  return row;
};

export async function insertMassItems(
  db: Executor,
  batchId: number,
  items: readonly { transactionId: number; before: unknown }[],
): Promise<void> {
  for (let start = 0; start < items.length; start += 20_000) {
    const chunk = items.slice(start, start + 20_000);
    await db.execute(
      sql`insert into ${massAllocationItems} (batch_id, transaction_id, before)
          select ${batchId}, t, b from unnest(${`{${chunk.map((i) => i.transactionId).join(',')}}`}::bigint[],
            array(select x from jsonb_array_elements(${JSON.stringify(chunk.map((i) => i.before))}::jsonb)
              with ordinality as e(x, n) order by n)) as u(t, b)`,
    );
  }
}

export const massAllocationsOf = (db: Executor, companyId: number) =>
  db
    .select()
    .from(massAllocations)
    .where(eq(massAllocations.companyId, companyId))
    .orderBy(sql`${massAllocations.id} desc`)
    .limit(20);

export async function findMassAllocation(db: Executor, id: number) {
  const [row] = await db
    .select()
    .from(massAllocations)
    .where(eq(massAllocations.id, id))
    .for('update')
    .limit(1);
  return row;
}

export const massItemsOf = (db: Executor, batchId: number) =>
  db
    .select({ transactionId: massAllocationItems.transactionId, before: massAllocationItems.before })
    .from(massAllocationItems)
    .where(eq(massAllocationItems.batchId, batchId));

export const markUndone = (db: Executor, id: number) =>
  db.update(massAllocations).set({ undoneAt: new Date() }).where(eq(massAllocations.id, id));
