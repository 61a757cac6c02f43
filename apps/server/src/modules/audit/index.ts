import type { ServerModule } from '../../kernel/module.ts';
import { auditRoutes } from './routes.ts';

/** The audit trail as administrators read it (writing audit rows is the kernel's, kernel/audit.ts). */
export const auditModule: ServerModule = { routes: auditRoutes };
