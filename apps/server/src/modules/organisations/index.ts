import type { ServerModule } from '../../kernel/module.ts';
import { organisationRoutes } from './routes.ts';

export {
  findCompanyByNumber,
  firstCompany,
  listIssuersWithCompanies,
  type NewCardholder,
  OrganisationError,
  scopeFromCompany,
  type UserScope,
} from './organisations.ts';

/** Companies, company groups, org points and account groups (docs/organisations.md). */
export const organisationsModule: ServerModule = { routes: organisationRoutes };
