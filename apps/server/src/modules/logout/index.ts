import type { ServerModule } from '../../kernel/module.ts';
import { logoutRoutes } from './routes.ts';

/** Sign-out. */
export const logoutModule: ServerModule = { routes: logoutRoutes };
