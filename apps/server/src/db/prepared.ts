import { type Column, getTableColumns, type SQL } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

const dialect = new PgDialect();

/**
 * A statement of a hot path (the sign-in's, issue 19), written once with `sql.placeholder(name)` for its
 * values. Drizzle builds a query's text anew on every call (a fifth of a sign-in's event-loop time went
 * there); this one is built at the first call on each database handle, and on PostgreSQL it is a named
 * prepared statement, parsed and planned once per connection. Each name must belong to one text.
 * Answers the driver's rows as they come (snake_case columns; `rowOf` maps a table's).
 */
export function preparedStatement<Row extends object>(
  name: string,
  query: SQL,
): (db: Executor, values: Record<string, unknown>) => Promise<Row[]> {
  const built = dialect.sqlToQuery(query);
  const handles = new WeakMap<object, Prepared>();
  return async (db, values) => {
    let statement = handles.get(db);
    if (!statement) {
      const session = (db as unknown as { _: { session: HandleSession } })._.session;
      statement = session.prepareQuery(built, undefined, name, false);
      handles.set(db, statement);
    }
    const result = (await statement.execute(values)) as { rows: Row[] };
    return result.rows;
  };
}

/**
 * Statements with placeholders and their values, that another module's prepared statement runs as
 * data-modifying CTEs of its own (the sign-in's success, committed with the session: sessions.start).
 */
export interface StatementTemplate {
  /** One name for each text of `parts`. */
  name: string;
  parts: SQL[];
  values: Record<string, unknown>;
}

interface HandleSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    isResponseInArrayMode: boolean,
  ): Prepared;
}

interface Prepared {
  execute(values: Record<string, unknown>): Promise<unknown>;
}

/**
 * A table's row from a raw row that selected its columns under their names: each value
 * through its column's own mapping, as drizzle's own selects do (timestamps to Date, numeric modes…).
 */
const columnsOf = new WeakMap<PgTable, [string, Column][]>();
export function rowOf<T extends PgTable>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  let columns = columnsOf.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table));
    columnsOf.set(table, columns);
  }
  const row: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
