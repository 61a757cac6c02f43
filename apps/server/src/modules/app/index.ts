import type { ServerModule } from '../../kernel/module.ts';
import { appRoutes } from './routes.ts';

/** The application's shell: the SPA under /app/ and the signed-in user's `GET /app/api/me`. */
export const appModule: ServerModule = { routes: appRoutes };
