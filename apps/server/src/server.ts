import { rmSync } from 'node:fs';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { socketPath } from './db/client.ts';
import { errorText } from './kernel/error-text.ts';
import { closeServices, createServices } from './services.ts';

/** Starts the server: listens, shares the embedded database over a local socket, drains on SIGTERM. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
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

  // Background work (session and attempt purges, mail delivery) on the job queue (docs/jobs.md).
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
    }, 25_000).unref();
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
  app.log.info(
    { node: process.version },
    `cardportal serving on ${config.publicUrl}/ (Node.js ${process.versions.node}, ${services.database.kind} database${config.demo ? ', demo data' : ''})`,
  );
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${errorText(error)}`);
  process.exit(1);
});
