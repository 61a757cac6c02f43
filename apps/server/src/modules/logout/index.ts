import type { ServerModule } from '../../kernel/module.ts';
import { logoutRoutes } from './routes.ts';

/** The job that deletes expired sessions (docs/jobs.md). */
export const SESSIONS_PURGE = 'sessions.purge';

/** Sign-out, and the end of expired sessions (the `sessions.purge` job, every minute). */
export const logoutModule: ServerModule = {
  routes: logoutRoutes,
  jobs: [{ name: SESSIONS_PURGE, cron: '* * * * *', run: (app) => app.sessions.purgeExpired() }],
};
