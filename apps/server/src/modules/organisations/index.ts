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

/** Companies, company groups, org points and account groups (docs/organisations.md). */
export const organisationsModule: ServerModule = {
  routes: organisationRoutes,
  commands: organisationCommands,
};
