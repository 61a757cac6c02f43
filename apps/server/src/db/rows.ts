import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/**
 * The plain row operations by id that every repository needs (insert answering the row, change with its
 * updatedAt, lock until the transaction ends, delete), written once. A repository names them for its
 * tables (`updateIssuer = (db, id, values) => updateById(db, issuers, id, values)`).
 */
type TableWithId = PgTable & { id: PgColumn; $inferInsert: object; $inferSelect: object };

export async function insertRow<T extends TableWithId>(
  db: Executor,
  table: T,
  values: T['$inferInsert'],
): Promise<T['$inferSelect']> {
  const [row] = (await db
    .insert(table)
    .values(values as never)
    .returning()) as T['$inferSelect'][];
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Changes columns of the row (and its `updatedAt`). */
export async function updateById<T extends TableWithId>(
  db: Executor,
  table: T,
  id: number,
  values: Partial<T['$inferInsert']>,
): Promise<void> {
  await db
    .update(table)
    .set({ ...values, updatedAt: new Date() } as never)
    .where(eq(table.id, id));
}

/** Locks the row until the transaction ends: nothing can start referring to it meanwhile. */
export async function lockById(db: Executor, table: TableWithId, id: number): Promise<void> {
  await db
    .select({ id: table.id })
    .from(table as never)
    .where(eq(table.id, id))
    .for('update');
}

export async function deleteById(db: Executor, table: TableWithId, id: number): Promise<void> {
  await db.delete(table).where(eq(table.id, id));
}

/** A LIKE / ILIKE pattern matching text that contains `q` literally (its %, _ and \\ escaped). */
export const containsPattern = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
