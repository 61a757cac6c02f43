import type { ServerModule } from '../../kernel/module.ts';
import { multiUserRoutes } from './routes.ts';

export { membershipOf, multiUserStateOf, rolesHeldBy } from './links.ts';

/** Multi-user links between one person's user IDs (docs/multi-user.md). */
export const multiUserModule: ServerModule = { routes: multiUserRoutes };
