import type { ServerModule } from '../../kernel/module.ts';
import { passwordRoutes } from './routes.ts';

/** Forgot-password and change-password (spec §5, §6). */
export const passwordModule: ServerModule = { routes: passwordRoutes };
