import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../src/db/client.ts';
import { startTestApp, type TestContext } from './harness.ts';

/**
 * The contract behind db/client.ts's own pool transaction (openPostgres): Drizzle's pool transaction
 * sends BEGIN before its try/finally, so a BEGIN that fails never releases the pool's client — every
 * database outage would leak a slot until the pool stalls. The first test pins that upstream behaviour:
 * when a Drizzle upgrade fixes it, it fails, and the replacement in db/client.ts can go. The second proves
 * the replacement releases.
 *
 * A deterministic failing BEGIN: an isolation level PostgreSQL does not know (a syntax error in BEGIN).
 */
const BAD_BEGIN = { isolationLevel: 'no such level' } as unknown as { isolationLevel: 'serializable' };

/** Resolves with the value, or with 'stalled' when the pool has no client to give within 2 s. */
const within2s = <T>(work: Promise<T>) =>
  Promise.race([work, new Promise<'stalled'>((r) => setTimeout(() => r('stalled'), 2000).unref())]);

describe('the pool transaction (db/client.ts) against Drizzle’s own', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  it('Drizzle’s own still keeps the client when BEGIN fails (remove the replacement when this fails)', async () => {
    const pool = new pg.Pool({ connectionString: ctx.config.databaseUrl, max: 1 });
    let client: pg.PoolClient | undefined;
    pool.on('connect', (c) => {
      client = c;
      c.on('error', () => {});
    });
    try {
      const db = drizzle(pool);
      await expect(db.transaction(async () => 'never', BAD_BEGIN)).rejects.toThrow();
      expect({ total: pool.totalCount, idle: pool.idleCount }).toEqual({ total: 1, idle: 0 });
      expect(await within2s(pool.query('select 1'))).toBe('stalled');
    } finally {
      // The leaked client, released here by hand (destroyed), lets the pool end.
      client?.release(true);
      await pool.end();
    }
  });

  it('ours releases the client when BEGIN fails: the pool of one serves the next query at once', async () => {
    let database: Database | undefined;
    try {
      database = openPostgres(ctx.config.databaseUrl ?? '', 1);
      await expect(database.db.transaction(async () => 'never', BAD_BEGIN)).rejects.toThrow(
        /isolation|syntax/,
      );
      const answer = await within2s(database.db.execute(sql`select 1 as one`));
      expect(answer).not.toBe('stalled');
      // … and a transaction after it commits.
      expect(await database.db.transaction(async () => 'committed')).toBe('committed');
    } finally {
      await database?.close();
    }
  });
});
