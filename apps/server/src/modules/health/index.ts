import type { ServerModule } from '../../kernel/module.ts';
import { healthRoutes } from './routes.ts';

/** Liveness and readiness probes (/healthz, /readyz). */
export const healthModule: ServerModule = { routes: healthRoutes };
