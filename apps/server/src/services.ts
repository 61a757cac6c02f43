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
import { sealPlainCardNumbers } from './kernel/card-vault.ts';
import { loadSecrets, type Secrets } from './kernel/secrets.ts';
import { TextBundles } from './text/bundles.ts';

/**
 * Brings a database this process opened itself up to date, the same way for the server and the CLI
 * (whichever touches a new database first): migrations, the server secrets and, in demo mode, the demo
 * data, loaded once (several instances may start at once: one loads it under an advisory lock, the
 * others then find it loaded). Not for the CLI's connection over a running server's socket: that
 * server has initialised its database already. Returns the secrets and whether demo data was loaded now.
 */
export async function initialiseDatabase(
  database: Database,
  config: Config,
): Promise<{ secrets: Secrets; demoLoaded: boolean }> {
  await migrate(database, config.migrationsDir);
  const secrets = await loadSecrets(database.db, config);
  await sealPlainCardNumbers(database.db, secrets.cards);
  const demoLoaded = config.demo
    ? await database.withLock(DEMO_DATA_LOCK, (db) => loadDemoData(db, config, secrets))
    : false;
  return { secrets, demoLoaded };
}

/** Opens the database the configuration names, without initialising it (initialiseDatabase). */
export async function openDatabase(config: Config, options: { pool?: number } = {}): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, options.pool);
  return openPglite(config.dataDir);
}

/**
 * Opens and initialises the database, then the other services. With the embedded database, a new data
 * directory's initdb (a ~700 MB spike) and initialisation run in a child process (`cli db init`, which
 * calls initialiseDatabase too) so the serving process never carries that spike.
 */
export async function createServices(
  config: Config,
  options: { initInChild?: boolean } = {},
): Promise<Services> {
  if (!config.databaseUrl && options.initInChild && !isPgliteInitialised(config.dataDir)) {
    await runChild(['db', 'init']);
  }
  const database = await openDatabase(config);
  const { secrets } = await initialiseDatabase(database, config);
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
