import type { ServerModule } from '../../kernel/module.ts';
import { accessAsRoutes } from './routes.ts';

/** Access as user: an administrator works as another user of its link or scope (docs/multi-user.md). */
export const accessAsModule: ServerModule = { routes: accessAsRoutes };
