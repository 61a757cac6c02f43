import type { ServerModule } from '../../kernel/module.ts';
import { loadCaller } from './user-scope.ts';

export {
  accountGroupScope,
  accountScope,
  cardholderScope,
  companyGroupScope,
  companyScope,
  FALSE,
  issuerGroupScope,
  issuerScope,
  subtree,
  transactionScope,
} from './scopes.ts';
export { endSessionsOfOrganisation, organisationActive, organisationActiveSql } from './standing.ts';
export {
  countVisibleUsers,
  findVisibleUser,
  loadCaller,
  mayModifyVisible,
  orgPathOf,
  peerOf,
  placementOfVisible,
  selectVisibleUsers,
  type VisibleUser,
  visibleUserIds,
} from './user-scope.ts';

/**
 * Who may act, and on what (docs/authorization.md): the caller a session's user is (`app.loadCaller`,
 * which the HTTP kernel's requireCaller calls), its organisation's standing, and the SQL that keeps a
 * caller's queries inside its scope.
 */
export const accessModule: ServerModule = {
  services: (app) => app.decorate('loadCaller', (userPk: number) => loadCaller(app.db, userPk)),
};
