import type { ServerModule } from '../../kernel/module.ts';
import { accountCommands } from './commands.ts';
import { accountRoutes } from './routes.ts';

/** Card accounts, account groups and cardholders. */
export const accountsModule: ServerModule = { routes: accountRoutes, commands: accountCommands };
