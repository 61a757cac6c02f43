import type { ServerModule } from '../../kernel/module.ts';
import { purgeClientLogs } from './client-logs.ts';
import { portalRoutes } from './routes.ts';

export { CLIENT_LOG_CAP, CLIENT_LOG_DAYS, purgeClientLogs } from './client-logs.ts';

/** The job that keeps the browsers' error reports bounded (docs/jobs.md). */
export const PORTAL_PURGE_CLIENT_LOGS = 'portal.purge-client-logs';

/** The public portal: its built pages, server-rendered boot data, client logs. */
export const portalModule: ServerModule = {
  routes: portalRoutes,
  jobs: [{ name: PORTAL_PURGE_CLIENT_LOGS, cron: '17 * * * *', run: (app) => purgeClientLogs(app.db) }],
};
