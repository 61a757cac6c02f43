import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { CliCommand } from './cli.ts';
import type { JobDefinition } from './jobs.ts';

/**
 * A feature module as the server composes it (`MODULES` in app.ts, one line each; docs/architecture.md):
 * the services it puts on the application instance for other modules and itself (`app.cobrands`,
 * `app.login`, ...), and its routes. Every module's `services` run, in the list's order, before the
 * request hooks and before any module's routes; the routes are then registered in the same order, each
 * as its own encapsulated Fastify plugin. A module's index.ts exports its ServerModule beside the rest of
 * its public surface.
 */
export interface ServerModule {
  /** Decorates the root instance with the module's services (and their hooks, e.g. onClose). */
  services?: (app: FastifyInstance) => void;
  /** The module's routes. */
  routes?: FastifyPluginAsync;
  /** The module's admin CLI commands (kernel/cli.ts), listed by `npm run cli -- help` in MODULES' order. */
  commands?: readonly CliCommand[];
  /** The module's background jobs (kernel/jobs.ts, docs/jobs.md): run on the job queue, once across instances. */
  jobs?: readonly JobDefinition[];
}
