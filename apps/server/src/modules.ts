import type { ServerModule } from './kernel/module.ts';
import { accessModule } from './modules/access/index.ts';
import { accessAsModule } from './modules/access-as/index.ts';
import { accountingModule } from './modules/accounting/index.ts';
import { accountsModule } from './modules/accounts/index.ts';
import { appModule } from './modules/app/index.ts';
import { auditModule } from './modules/audit/index.ts';
import { cobrandModule } from './modules/cobrand/index.ts';
import { expensesModule } from './modules/expenses/index.ts';
import { healthModule } from './modules/health/index.ts';
import { issuersModule } from './modules/issuers/index.ts';
import { loginModule } from './modules/login/index.ts';
import { logoutModule } from './modules/logout/index.ts';
import { mailModule } from './modules/mail/index.ts';
import { multiUserModule } from './modules/multi-user/index.ts';
import { organisationsModule } from './modules/organisations/index.ts';
import { otpModule } from './modules/otp/index.ts';
import { passwordModule } from './modules/password/index.ts';
import { portalModule } from './modules/portal/index.ts';
import { profileModule } from './modules/profile/index.ts';
import { registrationModule } from './modules/registration/index.ts';
import { rolesModule } from './modules/roles/index.ts';
import { ssoModule } from './modules/sso/index.ts';
import { textModule } from './modules/text/index.ts';
import { tokenModule } from './modules/token/index.ts';
import { transactionsModule } from './modules/transactions/index.ts';
import { usersModule } from './modules/users/index.ts';

/**
 * The server's feature modules, in the order their services are constructed and their routes
 * registered (buildApp). Adding a module is one line here (docs/architecture.md); which module may
 * import which is declared in .dependency-cruiser.cjs and checked by `npm run lint`.
 */
export const MODULES: readonly ServerModule[] = [
  accessModule,
  mailModule,
  healthModule,
  cobrandModule,
  textModule,
  loginModule,
  ssoModule,
  logoutModule,
  otpModule,
  passwordModule,
  tokenModule,
  portalModule,
  registrationModule,
  organisationsModule,
  issuersModule,
  accountsModule,
  accountingModule,
  transactionsModule,
  expensesModule,
  profileModule,
  rolesModule,
  multiUserModule,
  accessAsModule,
  appModule,
  usersModule,
  auditModule,
];
