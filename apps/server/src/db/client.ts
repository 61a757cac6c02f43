import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: repositories accept either. */
export type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction'>;

/**
 * Runs a raw statement (drizzle's `sql`) and answers its rows: the one place that knows the drivers'
 * result shapes (node-postgres and PGlite both answer `{ rows }`; db-contract test).
 */
export async function queryRows<T extends object>(db: Executor, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/**
 * One transaction on one connection, in plain SQL with `$n` parameters, for bulk work (a transaction
 * file's import): no statement timeout of the serving pool, and COPY FROM STDIN where the driver has it.
 */
export interface BulkSession {
  query<R extends object = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<{ rows: R[]; affectedRows: number }>;
  /** `COPY … FROM STDIN` as a writable stream (PostgreSQL; the embedded database has none). */
  copyFrom?: (text: string) => NodeJS.WritableStream;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres' | 'pglite-socket';
  /** The embedded instance, when this process owns it (for the socket server). */
  pglite?: PGlite;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs fn while holding a cluster-wide advisory lock (PostgreSQL), on a connection of its own without
   * the serving timeouts (migrations may take long); directly otherwise.
   */
  withLock<T>(key: number, fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * Runs fn in one transaction of its own (BulkSession): committed when fn resolves, rolled back when
   * it throws — a crash or a killed process in between leaves nothing behind.
   */
  bulk<T>(fn: (session: BulkSession) => Promise<T>): Promise<T>;
}

/** bulk() over a node-postgres pool: a client of its own, BEGIN … COMMIT, released however it ends. */
function poolBulk(pool: pg.Pool, copy: boolean) {
  return async <T>(fn: (session: BulkSession) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin');
      // Bulk work may take minutes: the serving timeouts (SERVING_TIMEOUTS) are for requests.
      await client.query('set local statement_timeout = 0');
      await client.query('set local idle_in_transaction_session_timeout = 0');
      const session: BulkSession = {
        query: async (text, params) => {
          const result = await client.query(text, params);
          return { rows: result.rows, affectedRows: result.rowCount ?? 0 };
        },
        ...(copy ? { copyFrom: (text: string) => client.query(copyFrom(text)) } : {}),
      };
      const answer = await fn(session);
      await client.query('commit');
      return answer;
    } catch (error) {
      try {
        await client.query('rollback');
      } catch (rollbackError) {
        broken = rollbackError as Error;
      }
      if (connectionLost(client, error)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

const direct =
  (db: Db) =>
  <T>(_key: number, fn: (db: Db) => Promise<T>) =>
    fn(db);

/** PGlite settings that keep its memory small (DESIGN §2: ~180 MB resident with 16 MB shared buffers). */
const PGLITE_CONF = ['shared_buffers=16MB', 'work_mem=4MB', 'maintenance_work_mem=16MB', 'max_connections=4'];

export function pgliteDir(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** The local socket over which a running server shares its embedded database (DESIGN §3). */
export const SOCKET_PORT = 5432;
export function socketPath(dataDir: string): string {
  return path.join(dataDir, `.s.PGSQL.${SOCKET_PORT}`);
}

export function isPgliteInitialised(dataDir: string): boolean {
  return existsSync(path.join(pgliteDir(dataDir), 'PG_VERSION'));
}

/**
 * Node 24's V8 can abort the whole process while it frees WebAssembly code it no longer needs
 * (`Check failed: jit_page_->allocations_.erase(addr) == 1` in `ThreadIsolation::UnregisterWasmAllocation`;
 * nodejs/node#66366, fixed upstream in V8 9b8ca54d5a, in no Node 24 release yet). PGlite is the only
 * WebAssembly this product runs, so every process that opens it — the server, the CLI, a test worker,
 * the tests' template builder — turns that collection off first (docs/runtime.md). The cost is keeping the
 * baseline code of functions V8 has since optimised, which did not show in resident memory (docs/runtime.md).
 */
function withoutWasmCodeGc(): void {
  v8.setFlagsFromString('--no-wasm-code-gc');
}

/**
 * Opens the embedded database in a data directory, or in memory. `loadDataDir` starts it from a dump
 * (`dumpDataDir()`) instead of an empty cluster: the tests' template database (apps/server/test).
 */
export async function openPglite(
  dataDirOrMemory: string,
  options: { loadDataDir?: Blob } = {},
): Promise<Database> {
  let dataDir: string | undefined;
  if (dataDirOrMemory !== 'memory://') {
    dataDir = pgliteDir(dataDirOrMemory);
    await mkdir(dataDir, { recursive: true });
  }
  withoutWasmCodeGc();
  // Loaded only in embedded mode: a PostgreSQL-mode server does not carry PGlite's code (memory, issue 6).
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  const client = await PGlite.create({
    dataDir,
    postgresqlconf: PGLITE_CONF,
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
    withLock: direct(db),
    bulk: (fn) =>
      client.transaction((tx) =>
        fn({
          query: async (text, params) => {
            const result = await tx.query(text, params);
            return { rows: result.rows as never[], affectedRows: result.affectedRows ?? 0 };
          },
        }),
      ),
  };
}

/**
 * Serving timeouts (DESIGN §3: a database outage answers 503 at once, never a hang): waiting for a pool
 * slot or a new connection, a statement the server takes too long over, a query whose connection went
 * silent (no answer, no reset), a transaction left open by a vanished client (its row locks), and TCP
 * keepalive on idle connections.
 */
const SERVING_TIMEOUTS = {
  connectionTimeoutMillis: 5000,
  statement_timeout: 10_000,
  query_timeout: 12_000,
  idle_in_transaction_session_timeout: 30_000,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;

/** True when a client must not go back to the pool after this error (its connection is unusable). */
function connectionLost(client: pg.PoolClient, error: unknown): boolean {
  const queryable = (client as unknown as { _queryable?: boolean })._queryable;
  return queryable === false || /Query read timeout/i.test(String((error as Error)?.message));
}

export function openPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, ...SERVING_TIMEOUTS });
  // A dropped connection must not crash the process; the next query reports the error. pg-pool listens
  // for errors of idle clients only: a client that loses its connection while checked out (inside a
  // transaction) emits 'error' too, which with no listener would kill the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  // Drizzle's own pool transaction never releases its client when BEGIN fails (a dead connection), so
  // every outage would leak pool slots until the pool stalls; and it returns a timed-out client to the
  // pool. This one always releases, and discards a client whose connection is gone.
  const transaction = async (fn: (tx: unknown) => Promise<unknown>, config?: unknown) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const session = drizzleNodePg(client, { schema }) as unknown as {
        transaction(f: typeof fn, c?: unknown): Promise<unknown>;
      };
      return await session.transaction(fn, config);
    } catch (error) {
      if (connectionLost(client, error)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  };
  (db as unknown as { transaction: typeof transaction }).transaction = transaction;
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
    withLock: async (key, fn) => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        return await fn(drizzleNodePg(client, { schema }) as unknown as Db);
      } finally {
        // Ending the session releases the lock, also when the connection is already gone.
        await client.end().catch(() => {});
      }
    },
    bulk: poolBulk(pool, true),
  };
}

/** Connects to a running server's embedded database over its local socket, if one answers. */
export async function openPgliteSocket(dataDir: string): Promise<Database | undefined> {
  const file = socketPath(dataDir);
  if (!existsSync(file)) return undefined;
  const alive = await new Promise<boolean>((resolve) => {
    const s = net.connect(file);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
  if (!alive) return undefined;
  const pool = new pg.Pool({
    host: path.dirname(file),
    port: SOCKET_PORT,
    user: 'postgres',
    database: 'postgres',
    max: 1,
  });
  pool.on('error', () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite-socket',
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
    withLock: direct(db),
    // The socket speaks the protocol to the embedded database, which has no COPY FROM STDIN.
    bulk: poolBulk(pool, false),
  };
}

/** Advisory lock keys (PostgreSQL): one instance at a time migrates, or loads the demo data. */
export const MIGRATION_LOCK = 727274001;
export const DEMO_DATA_LOCK = 727274002;

/** Applies the committed SQL migrations (drizzle-kit generate), serialised across instances. */
export async function migrate(database: Database, migrationsFolder: string): Promise<void> {
  if (database.kind === 'pglite') {
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(database.db as never, { migrationsFolder });
    return;
  }
  // Several instances may start at once against one PostgreSQL: one migrates, the others wait.
  await database.withLock(MIGRATION_LOCK, (db) => migrateNodePg(db as never, { migrationsFolder }));
}
