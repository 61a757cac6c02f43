import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { startTestApp, type TestContext } from './harness.ts';

/** What the kernel's raw-statement helper answers, on the driver of this project (PGlite or node-pg). */
describe('queryRows (db/client.ts): the one place that reads a driver’s raw result', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  it('answers the rows, typed, whichever driver ran the statement — outside and inside a transaction', async () => {
    const db = ctx.services.database.db;
    const query = sql`select n, n::text as label, n % 2 = 0 as even from generate_series(1, 3) as n`;
    const expected = [
      { n: 1, label: '1', even: false },
      { n: 2, label: '2', even: true },
      { n: 3, label: '3', even: false },
    ];
    expect(await queryRows<{ n: number; label: string; even: boolean }>(db, query)).toEqual(expected);
    expect(await db.transaction((tx) => queryRows(tx, query))).toEqual(expected);
    expect(await queryRows(db, sql`select 1 where false`)).toEqual([]);
  });
});
