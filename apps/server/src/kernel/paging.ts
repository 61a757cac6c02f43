import { isIsoDate } from '@cardportal/domain';
import { count, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Subquery } from 'drizzle-orm/subquery';
import { z } from 'zod';
import type { Executor } from '../db/client.ts';
import { AppError } from '../http/app-error.ts';

/**
 * Paging by key (issue 21 item 3, DESIGN §7 "every list pages by key", docs/paging.md). Every list of
 * the application pages through `keysetPage`: the rows after (or before) a position in a unique sort
 * key, found by a row-value comparison `(a, b) > ($1, $2)` that the list's composite index answers,
 * so page 10 000 costs what page 1 costs. The position travels as an opaque cursor. OFFSET exists only
 * here, in `numberedPage`, for the lists small by nature (docs/paging.md names them).
 */

/** How a key value is carried and compared: text, a whole number, or a timestamp (kept as PostgreSQL text, microseconds intact). */
export type KeyType = 'text' | 'int' | 'timestamptz' | 'date';

export interface KeyPart {
  /** The column or expression sorted on (the index's column, in its order). */
  expr: SQLWrapper;
  type: KeyType;
}

/** A list's sort key: a unique tuple (the last part is usually the primary key), one direction. */
export interface Keyset<Row> {
  /** The list's name; a cursor of another list is refused. */
  list: string;
  keys: KeyPart[];
  direction: 'asc' | 'desc';
  /** The key values of a row, in the order of `keys` (a timestamp as PostgreSQL's text of it). */
  keyOf: (row: Row) => (string | number)[];
}

/** One of a list's sort orders: its unique key, in the order of the index that answers it. */
export interface SortKey<Row> {
  keys: KeyPart[];
  keyOf: (row: Row) => (string | number)[];
}

/**
 * The keyset of a list in the order a request chose (issue 20 item 3, docs/paging.md "Sorting"): the
 * order's key in that direction. Its cursors name the order (the default order keeps the list's own
 * name), so a cursor taken in one order is refused in another instead of landing at a random place.
 */
export function sortedKeyset<Row, S extends string>(
  list: string,
  sorts: Record<S, SortKey<Row>>,
  chosen: { sort: S; dir: 'asc' | 'desc' },
  defaultOrder: { sort: S; dir: 'asc' | 'desc' },
): Keyset<Row> {
  const key = sorts[chosen.sort];
  const isDefault = chosen.sort === defaultOrder.sort && chosen.dir === defaultOrder.dir;
  return {
    list: isDefault ? list : `${list}:${chosen.sort}:${chosen.dir}`,
    keys: key.keys,
    direction: chosen.dir,
    keyOf: key.keyOf,
  };
}

/** Where a page starts: after a cursor, before one, or neither (the first page). */
export interface PageRequest {
  after?: string | undefined;
  before?: string | undefined;
  limit: number;
}

/** A page: its rows, and the cursors of the next and previous pages (null at either end). */
export interface KeysetPage<Row> {
  rows: Row[];
  nextCursor: string | null;
  prevCursor: string | null;
}

/** A cursor the server cannot read (tampered, truncated, of another list, or both `after` and `before`): a 400 naming the parameter. */
export class CursorError extends AppError {
  constructor(parameter: 'after' | 'before') {
    super('invalid', 'page.cursorInvalid', { fieldErrors: { [parameter]: 'page.cursorInvalid' } });
  }
}

/** Longest cursor accepted (the key values of one row, base64url). */
export const CURSOR_MAX_LENGTH = 1024;
const TEXT_MAX = 400;
const cursorShape = z.strictObject({
  l: z.string(),
  k: z.array(z.union([z.string().max(TEXT_MAX), z.number().int().safe()])).min(1),
});
/** PostgreSQL's text of a timestamptz (`2026-11-24 21:59:18.123456+00`, any offset). */
const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2}))?(?::?\d{2})?)$/;

/**
 * A timestamp PostgreSQL accepts: the shape, and a real calendar date and time with an offset within
 * ±15:59 (`2026-02-30` or `+99` would fail in the database's cast: a 5xx, not the 400 it is).
 */
function isTimestampText(value: string): boolean {
  const m = TIMESTAMP_TEXT.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHours = 0, offsetMinutes = 0] = m
    .slice(1)
    .map((part) => Number(part ?? 0));
  const date = new Date(0);
  date.setUTCFullYear(year as number, (month as number) - 1, day);
  date.setUTCHours(hour as number, minute, second);
  return (
    (year as number) >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === (month as number) - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second &&
    offsetHours <= 15 &&
    offsetMinutes < 60
  );
}

export function encodeCursor(list: string, values: (string | number)[]): string {
  return Buffer.from(JSON.stringify({ l: list, k: values }), 'utf8').toString('base64url');
}

/**
 * The key values of a cursor, checked against the list's key shape: anything else (bad base64url, bad
 * JSON, another list, wrong arity or types, a timestamp that is not one) is a `CursorError`, never a 5xx.
 */
export function decodeCursor(
  keyset: Pick<Keyset<unknown>, 'list' | 'keys'>,
  cursor: string,
  parameter: 'after' | 'before',
): (string | number)[] {
  if (cursor.length === 0 || cursor.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw new CursorError(parameter);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new CursorError(parameter);
  }
  const shape = cursorShape.safeParse(parsed);
  if (!shape.success || shape.data.l !== keyset.list || shape.data.k.length !== keyset.keys.length)
    throw new CursorError(parameter);
  const values = shape.data.k;
  keyset.keys.forEach((key, i) => {
    const value = values[i];
    const fits =
      key.type === 'int'
        ? typeof value === 'number'
        : typeof value === 'string' &&
          (key.type === 'text' || (key.type === 'date' ? isIsoDate(value) : isTimestampText(value)));
    if (!fits) throw new CursorError(parameter);
  });
  return values;
}

const castOf = (type: KeyType) => sql.raw(type === 'int' ? 'bigint' : type);

/** `(k1, k2, …) op ($1::t1, $2::t2, …)`: one row-value comparison, which a composite index answers. */
function beyond(keys: KeyPart[], values: (string | number)[], op: '>' | '<'): SQL {
  const left = sql.join(
    keys.map((k) => sql`${k.expr}`),
    sql`, `,
  );
  const right = sql.join(
    keys.map((k, i) => sql`${values[i]}::${castOf(k.type)}`),
    sql`, `,
  );
  return sql`(${left}) ${sql.raw(op)} (${right})`;
}

const ordered = (keys: KeyPart[], direction: 'asc' | 'desc') =>
  keys.map((k) => sql`${k.expr} ${sql.raw(direction)}`);

/** A list's query, given the condition the page adds (undefined on the first page): the helper orders and limits it. */
export type PageQuery<Row> = (beyond: SQL | undefined) => {
  orderBy(...columns: SQL[]): { limit(limit: number): PromiseLike<Row[]> };
};

/**
 * One page of a list by key. `select(beyond)` is the list's query with its own conditions and
 * `beyond` (the position) ANDed in; the helper orders it by the key and reads `limit + 1` rows to know
 * whether another page follows; `before` reads in the opposite order and turns the page round.
 */
export async function keysetPage<Row>(
  keyset: Keyset<Row>,
  request: PageRequest,
  select: PageQuery<Row>,
): Promise<KeysetPage<Row>> {
  if (request.after !== undefined && request.before !== undefined) throw new CursorError('before');
  const backwards = request.before !== undefined;
  const cursor = request.before ?? request.after;
  const parameter = backwards ? 'before' : 'after';
  const values = cursor === undefined ? undefined : decodeCursor(keyset, cursor, parameter);
  const ascending = keyset.direction === 'asc';
  const readAscending = backwards ? !ascending : ascending;
  const condition = values === undefined ? undefined : beyond(keyset.keys, values, readAscending ? '>' : '<');
  const read = await select(condition)
    .orderBy(...ordered(keyset.keys, readAscending ? 'asc' : 'desc'))
    .limit(request.limit + 1);
  const more = read.length > request.limit;
  const page = read.slice(0, request.limit);
  const keyOf = (row: Row | undefined) =>
    row === undefined ? null : encodeCursor(keyset.list, keyset.keyOf(row));
  if (!backwards) {
    return {
      rows: page,
      nextCursor: more ? keyOf(page.at(-1)) : null,
      // Past the end (rows deleted meanwhile): "previous" goes back from the same position.
      prevCursor: cursor === undefined ? null : page.length > 0 ? keyOf(page[0]) : cursor,
    };
  }
  page.reverse();
  return {
    rows: page,
    nextCursor: page.length > 0 ? keyOf(page.at(-1)) : (cursor ?? null),
    prevCursor: more ? keyOf(page[0]) : null,
  };
}

/**
 * How many rows a query matches, counting no further than `cap + 1` (enough to say "more than cap",
 * e.g. "Result set is too large"): `inner(cap + 1)` is the query limited so, as a subquery.
 */
export async function countUpTo(
  db: Executor,
  cap: number,
  inner: (limit: number) => Subquery,
): Promise<number> {
  const [row] = await db.select({ n: count() }).from(inner(cap + 1));
  return Number(row?.n ?? 0);
}

/**
 * A numbered page (page jump), for a list small by nature only (docs/paging.md): the one OFFSET of the
 * application. `page` is 1-based and already checked against the page count.
 */
export function numberedPage<Q extends PgSelect>(query: Q, page: number, pageSize: number): Q {
  return query.limit(pageSize).offset((page - 1) * pageSize) as Q;
}

/**
 * A page jump over a keyset list whose matches are counted and capped (the Transaction Summary: at
 * most `cap` rows can be paged to, else "Result set is too large"): the cursor to read page `page`
 * after — the key of the last row of the page before it, found by walking the list's index no further
 * than `cap` entries (docs/paging.md "Page jump over a key"). Page 1: no cursor.
 */
export async function cursorForPage<Row>(
  keyset: Keyset<Row>,
  page: number,
  pageSize: number,
  select: (beyond: undefined) => {
    orderBy(...columns: SQL[]): { limit(limit: number): { offset(offset: number): PromiseLike<Row[]> } };
  },
): Promise<string | undefined> {
  if (page <= 1) return undefined;
  const [row] = await select(undefined)
    .orderBy(...ordered(keyset.keys, keyset.direction))
    .limit(1)
    .offset((page - 1) * pageSize - 1);
  return row === undefined ? undefined : encodeCursor(keyset.list, keyset.keyOf(row));
}
