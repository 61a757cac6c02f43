import type { ServerModule } from '../../kernel/module.ts';
import { profileRoutes } from './routes.ts';

/** My Profile: the signed-in user's own details, password, security answer and soft token. */
export const profileModule: ServerModule = { routes: profileRoutes };
