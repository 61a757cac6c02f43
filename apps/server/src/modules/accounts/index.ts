import type { ServerModule } from '../../kernel/module.ts';
import { accountCommands } from './commands.ts';
import { accountRoutes } from './routes.ts';

/** Card accounts, account groups and cardholders. */
export const accountsModule: ServerModule = { routes: accountRoutes, commands: accountCommands };
/** The one rule of issuing a card account (the demo data issues its real cards by it). */
export { issueAccount } from './issue.ts';
