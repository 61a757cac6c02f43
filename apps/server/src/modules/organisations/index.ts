import type { ServerModule } from '../../kernel/module.ts';
import { organisationCommands } from './commands.ts';
import { organisationRoutes } from './routes.ts';

export {
  findCompanyByNumber,
  firstCompany,
  listIssuersWithCompanies,
  type NewCardholder,
  scopeFromCompany,
  type UserScope,
} from './organisations.ts';
/** Creating a company (its number, group, the single sign-on rule, the audit row), inside a transaction. */
export { addCompany } from './service.ts';

/** Companies, company groups, org points and account groups (docs/organisations.md). */
export const organisationsModule: ServerModule = {
  routes: organisationRoutes,
  commands: organisationCommands,
};
