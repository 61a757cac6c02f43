import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { registerBodyTypes } from './http/body-type.ts';
import { openApiRoute, registerContracts } from './http/contract.ts';
import { registerErrorHandlers } from './http/error-handler.ts';
import { registerAccessLog, serverOptions } from './http/logging.ts';
import { JobQueue } from './kernel/jobs.ts';
import type { Secrets } from './kernel/secrets.ts';
import { MODULES } from './modules.ts';
import { registerCsrf } from './security/csrf.ts';
import { registerApplicationHeaders } from './security/headers.ts';
import { registerRateLimit } from './security/rate-limit.ts';
import { SessionManager } from './security/sessions.ts';
import { Throttle } from './security/throttle.ts';
import type { TextBundles } from './text/bundles.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    secrets: Secrets;
    texts: TextBundles;
    sessions: SessionManager;
    redis: Redis | undefined;
    throttle: Throttle;
    /** The modules' background jobs (kernel/jobs.ts): started by server.ts, and by the tests that need it. */
    jobs: JobQueue;
  }
}

export interface Services {
  database: Database;
  secrets: Secrets;
  texts: TextBundles;
  redis?: Redis;
  /** Where the log goes (stdout when unset); tests capture it to check that no secret reaches it. */
  logStream?: NodeJS.WritableStream;
}

/**
 * The server: kernel plugins (logging, contracts, security headers, rate limit, body types, CSRF, one
 * error handler) around the feature modules of MODULES — their services first, then their routes, each
 * module an encapsulated plugin (docs/architecture.md).
 */
export async function buildApp(config: Config, services: Services): Promise<FastifyInstance> {
  const server = serverOptions(config, services.logStream);
  const app = Fastify(server.options);
  registerAccessLog(app, config);

  app.decorate('config', config);
  app.decorate('database', services.database);
  app.decorate('db', services.database.db);
  app.decorate('secrets', services.secrets);
  app.decorate('texts', services.texts);
  app.decorate('redis', services.redis);
  app.decorate('throttle', new Throttle(services.redis, 'cardportal:th:'));
  app.decorate('sessions', new SessionManager(services.database.db, config, services.secrets));
  app.decorate(
    'jobs',
    new JobQueue(
      { database: services.database, databaseUrl: config.databaseUrl, log: app.log, app },
      MODULES.flatMap((module) => module.jobs ?? []),
    ),
  );
  // First of the onClose hooks: running jobs finish before the services they use stop.
  app.addHook('onClose', () => app.jobs.stop());
  // The modules' own services (app.cobrands, app.login, ...), before any hook or route.
  for (const module of MODULES) module.services?.(app);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 8 * 1024 });
  // Every route's contract: zod validation and serialisation, and the OpenAPI document (http/contract.ts).
  await registerContracts(app, { version: '0.1.0' });
  registerApplicationHeaders(app, config);
  await registerRateLimit(app, config, services.redis);
  registerBodyTypes(app);
  registerCsrf(app, config, app.sessions);
  registerErrorHandlers(app);

  for (const module of MODULES) {
    if (module.routes) await app.register(module.routes);
  }
  await app.register(openApiRoute);
  app.addHook('onClose', () => server.stop());
  return app;
}
