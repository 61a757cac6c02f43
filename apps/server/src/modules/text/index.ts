import type { ServerModule } from '../../kernel/module.ts';
import { textRoutes } from './routes.ts';

/** The text bundles the front ends read. */
export const textModule: ServerModule = { routes: textRoutes };
