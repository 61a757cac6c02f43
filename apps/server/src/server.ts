import cluster, { type Worker } from 'node:cluster';
import { rmSync } from 'node:fs';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pino from 'pino';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { socketPath } from './db/client.ts';
import { errorText } from './kernel/error-text.ts';
import { configureHashPool } from './security/hash-pool.ts';
import { closeServices, createServices } from './services.ts';

/** A worker's own drain, then the primary's wait for all of them (docs/operations.md "Workers"). */
const DRAIN_MS = 25_000;
/** More worker deaths than this in a minute (workers × 3): the primary stops instead of forking forever. */
const CRASHES_PER_WORKER_A_MINUTE = 3;

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * The primary of `WORKERS` > 1 (node:cluster): forks that many workers, which listen on the one port
 * (the primary hands connections round-robin) and share nothing but PostgreSQL and Redis; starts another
 * when one dies, stops after too many deaths; on SIGTERM or SIGINT asks each to drain and exits when all
 * have.
 */
function runPrimary(config: Config): void {
  const log = pino({ level: config.logLevel, base: { role: 'primary', pid: process.pid } });
  let stopping = false;
  let exitCode = 0;
  const deaths: number[] = [];
  let listening = 0;

  const live = (): Worker[] =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const stop = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    log.info({ reason }, 'shutting down: the workers drain');
    for (const worker of live()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      log.error('shutdown: workers still running after the drain; exiting');
      process.exit(1);
    }, DRAIN_MS + 5_000).unref();
    if (live().length === 0) process.exit(exitCode);
  };

  cluster.on('listening', () => {
    listening += 1;
    if (listening === config.workers) {
      log.info(
        { node: process.version, workers: config.workers, hashThreads: config.hashThreads },
        `cardportal serving on ${config.publicUrl}/ (Node.js ${process.versions.node}, ${config.workers} workers × ${config.hashThreads} hash threads, postgres database)`,
      );
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (live().length === 0) process.exit(exitCode);
      return;
    }
    const now = Date.now();
    deaths.push(now);
    while ((deaths[0] ?? now) < now - 60_000) deaths.shift();
    if (deaths.length > config.workers * CRASHES_PER_WORKER_A_MINUTE) {
      log.fatal({ deaths: deaths.length }, 'workers keep dying; stopping');
      stop('crash loop', 1);
      return;
    }
    log.error({ worker: worker.process.pid, code, signal }, 'a worker exited; starting another');
    cluster.fork();
  });
  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));
  for (let i = 0; i < config.workers; i += 1) cluster.fork();
}

/** Starts the server: listens, shares the embedded database over a local socket, drains on SIGTERM. */
async function runServer(config: Config): Promise<void> {
  configureHashPool(config.hashThreads);
  const services = await createServices(config, { initInChild: true });
  const app = await buildApp(config, services);

  let socketServer: PGLiteSocketServer | undefined;
  if (services.database.pglite) {
    const file = socketPath(config.dataDir);
    rmSync(file, { force: true });
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    socketServer = new PGLiteSocketServer({ db: services.database.pglite, path: file, maxConnections: 4 });
    await socketServer.start();
  }

  // Background work (session and attempt purges, mail delivery) on the job queue (docs/jobs.md): in every
  // worker, pg-boss runs each job once across them.
  await app.jobs.start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    // Requests in flight finish (their database calls are bounded by the driver's timeouts); should the
    // drain still not end, exit rather than hang until the orchestrator's SIGKILL.
    setTimeout(() => {
      app.log.error('shutdown: requests still in flight after 25 s; exiting');
      process.exit(1);
    }, DRAIN_MS).unref();
    try {
      await app.close();
      await socketServer?.stop();
      await closeServices(services);
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (cluster.isWorker) {
    app.log.info({ node: process.version, worker: cluster.worker?.id }, 'worker listening');
    return;
  }
  app.log.info(
    { node: process.version },
    `cardportal serving on ${config.publicUrl}/ (Node.js ${process.versions.node}, ${services.database.kind} database${config.demo ? ', demo data' : ''})`,
  );
}

const config = configOrExit();
const start =
  config.workers > 1 && cluster.isPrimary ? async () => runPrimary(config) : () => runServer(config);
start().catch((error: unknown) => {
  console.error(`Start-up failed: ${errorText(error)}`);
  process.exit(1);
});
