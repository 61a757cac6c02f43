import type { ServerModule } from '../../kernel/module.ts';
import { accountCommands } from './commands.ts';
import { accountRoutes } from './routes.ts';

/** Card accounts, account groups and cardholders. */
export const accountsModule: ServerModule = { routes: accountRoutes, commands: accountCommands };
/** The one rule of issuing a card account (the demo data issues its real cards by it). */
export { issueAccount } from './issue.ts';
/** The company a path names inside the caller's scope, a path id, and the company row lock (accounting). */
export { companyInScope, idOf } from './lookup.ts';
/** An active org point of a company by number, and an account group in the caller's scope (card applications). */
export { type CompanyRef, findGroup, findOrgPoint, lockCompany } from './repository.ts';
