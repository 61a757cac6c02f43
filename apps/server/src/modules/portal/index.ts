import type { ServerModule } from '../../kernel/module.ts';
import { portalRoutes } from './routes.ts';

/** The public portal: its built pages, server-rendered boot data, client logs. */
export const portalModule: ServerModule = { routes: portalRoutes };
