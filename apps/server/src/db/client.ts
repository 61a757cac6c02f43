import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: repositories accept either. */
export type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction'>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres' | 'pglite-socket';
  /** The embedded instance, when this process owns it (for the socket server). */
  pglite?: PGlite;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Runs fn while holding a cluster-wide advisory lock (PostgreSQL); directly otherwise. */
  withLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
}

const direct = <T>(_key: number, fn: () => Promise<T>) => fn();

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

export async function openPglite(dataDirOrMemory: string): Promise<Database> {
  let dataDir: string | undefined;
  if (dataDirOrMemory !== 'memory://') {
    dataDir = pgliteDir(dataDirOrMemory);
    await mkdir(dataDir, { recursive: true });
  }
  const client = await PGlite.create({ dataDir, postgresqlconf: PGLITE_CONF });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
    withLock: direct,
  };
}

export function openPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // A dropped connection must not crash the process; the next query reports the error.
  pool.on('error', () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      const client = await pool.connect();
      try {
        await client.query('select 1');
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    withLock: async (key, fn) => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock($1)', [key]).catch(() => {});
        client.release();
      }
    },
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
    withLock: direct,
  };
}

/** Applies the committed SQL migrations (drizzle-kit generate), serialised across instances. */
export async function migrate(database: Database, migrationsFolder: string): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder });
    return;
  }
  // Several instances may start at once against one PostgreSQL: one migrates, the others wait.
  await database.withLock(727274001, () => migrateNodePg(database.db as never, { migrationsFolder }));
}
