import type { ServerModule } from '../../kernel/module.ts';
import { roleRoutes } from './routes.ts';

/** Roles and their permissions, and the roles users hold. */
export const rolesModule: ServerModule = { routes: roleRoutes };
