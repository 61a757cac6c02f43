/**
 * Every event the audit trail records, the fields its changes name, and who is the actor of the events
 * a person takes for itself (issue 20 item 6): one list the server writes from (apps/server
 * kernel/audit.ts checks its event types against it), the screens name through the text bundles
 * (`app.audit.event.{event}`, `app.audit.field.{field}`, in all 23 languages), and the tests walk.
 */
export const AUDIT_EVENTS = [
  // Sign-in and credentials.
  'login.success',
  'login.failure',
  'login.locked',
  'login.refused',
  'logout',
  'password.reset',
  'password.changed',
  'token.pin-set',
  // People.
  'user.created',
  'user.updated',
  'user.deactivated',
  'user.reactivated',
  'user.unlocked',
  'user.locked',
  'user.rolesChanged',
  'profile.updated',
  'profile.softToken',
  'role.created',
  'role.updated',
  'multiUser.linked',
  'multiUser.unlinked',
  'multiUser.confirmed',
  'multiUser.declined',
  'multiUser.switched',
  'accessAs.started',
  'accessAs.ended',
  'audit.exported',
  'uniqueKey.refused',
  // Organisations.
  'issuer.created',
  'issuer.updated',
  'issuer.deactivated',
  'issuer.reactivated',
  'issuer.deleted',
  'issuerGroup.created',
  'issuerGroup.updated',
  'issuerGroup.deactivated',
  'issuerGroup.reactivated',
  'companyGroup.created',
  'companyGroup.updated',
  'companyGroup.deactivated',
  'companyGroup.reactivated',
  'company.created',
  'company.updated',
  'company.deactivated',
  'company.reactivated',
  'company.deleted',
  'programOption.updated',
  'issuerCode.created',
  'issuerCode.updated',
  'issuerCode.deleted',
  'orgPoint.created',
  'orgPoint.updated',
  'orgPoint.deactivated',
  'orgPoint.reactivated',
  'orgPoint.deleted',
  'orgPoint.uploaded',
  // Cardholders and card accounts.
  'cardholder.updated',
  'cardholder.deactivated',
  'cardholder.reactivated',
  'cardholder.reasonsChanged',
  'account.issued',
  'account.statusChanged',
  'account.closed',
  'account.moved',
  'accountGroup.created',
  'accountGroup.updated',
  'accountGroup.deactivated',
  'accountGroup.reactivated',
  'realCard.created',
  'realCard.updated',
  'realCard.deactivated',
  'realCard.reactivated',
  'realCard.deleted',
  // Transactions.
  'transaction.reviewed',
  'transaction.approved',
  'transaction.locked',
  'transaction.split',
  'transaction.unsplit',
  'transaction.disputed',
  'transactions.imported',
  'transactions.refused',
  'transactions.exported',
] as const;
export type AuditEventCode = (typeof AUDIT_EVENTS)[number];

export const isAuditEvent = (value: string): value is AuditEventCode =>
  (AUDIT_EVENTS as readonly string[]).includes(value);

/**
 * Events a person takes for itself, recorded without an acting administrator: their actor is the user
 * the row is about (signing in, out, changing one's own password). Any other row without an actor was
 * made by the system itself (a lock after failed attempts, a file from the command line).
 */
export const SELF_SERVICE_EVENTS: ReadonlySet<string> = new Set<AuditEventCode>([
  'login.success',
  'login.failure',
  'login.refused',
  'logout',
  'password.reset',
  'password.changed',
  'token.pin-set',
]);

/** The fields an audit row's changes name, each with a text (`app.audit.field.{field}`). */
export const AUDIT_FIELDS = [
  'displayUserId',
  'email',
  'firstName',
  'lastName',
  'userType',
  'status',
  'locale',
  'issuerGroupId',
  'issuerId',
  'companyGroupId',
  'companyId',
  'orgPointId',
  'accountGroupId',
  'cardholderId',
  'name',
  'description',
  'permissions',
  'active',
  'number',
  'name1',
  'name2',
  'ica',
  'bankNumber',
  'cobrand',
  'cardBins',
  'accountDigits',
  'minLength',
  'durationDays',
  'groupName',
  'multiUser',
  'reportingLevel',
  'reportsTo',
  'orgPoint',
  'lines',
  'securityQuestion',
  'loginType',
  'token',
  'link',
  'reasons',
  'group',
  'alias',
  'issuerStatus',
  'systemStatus',
  'roles',
] as const;
export type AuditField = (typeof AUDIT_FIELDS)[number];

export const isAuditField = (value: string): value is AuditField =>
  (AUDIT_FIELDS as readonly string[]).includes(value);
