import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { Services } from './app.ts';
import type { Config } from './config.ts';
import {
  type Database,
  DEMO_DATA_LOCK,
  isPgliteInitialised,
  migrate,
  openPglite,
  openPostgres,
} from './db/client.ts';
import { loadDemoData } from './demo/load.ts';
import { loadSecrets } from './shared/secrets.ts';
import { TextBundles } from './text/bundles.ts';

/**
 * Opens the database the configuration names, applies migrations and, in demo mode, loads the demo
 * data once. With the embedded database, the first start's initdb (a ~700 MB spike) runs in a child
 * process so the serving process never carries it.
 */
export async function openDatabase(
  config: Config,
  options: { initInChild?: boolean } = {},
): Promise<Database> {
  if (config.databaseUrl) {
    const database = openPostgres(config.databaseUrl);
    await migrate(database, config.migrationsDir);
    return database;
  }
  if (options.initInChild && !isPgliteInitialised(config.dataDir)) {
    await runChild(['db', 'init']);
  }
  const database = await openPglite(config.dataDir);
  await migrate(database, config.migrationsDir);
  return database;
}

export async function createServices(
  config: Config,
  options: { initInChild?: boolean } = {},
): Promise<Services> {
  const database = await openDatabase(config, options);
  const secrets = await loadSecrets(database.db);
  // Several instances may start at once: one loads the demo data, the others then find it loaded.
  if (config.demo) await database.withLock(DEMO_DATA_LOCK, (db) => loadDemoData(db, config, secrets));
  const texts = new TextBundles(config.bundlesDir);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  return { database, secrets, texts, redis };
}

/**
 * The shared Redis client. Commands fail at once while Redis is unreachable (no offline queue), so that
 * the callers' fallbacks apply instead of requests hanging; the client reconnects by itself.
 */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: true,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
  redis.on('error', () => {}); // reported by /readyz and by the calls that need it
  await redis.connect();
  return redis;
}

export async function closeServices(services: Services): Promise<void> {
  services.redis?.disconnect();
  await services.database.close();
}

/** Runs the admin CLI (same entry point kind as this file: .ts under tsx, .js when built) in a child. */
function runChild(args: string[]): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const cli = self.replace(/(services|server)\.(ts|js)$/, 'cli.$2');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, cli, ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });
}
