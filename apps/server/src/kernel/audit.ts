import type { AuditEventCode } from '@cardportal/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';

export type AuditEvent =
  | 'login.success'
  | 'login.failure'
  | 'login.locked'
  | 'login.refused'
  | 'logout'
  | 'user.created'
  | 'user.unlocked'
  | 'user.locked'
  | 'password.reset'
  | 'password.changed'
  | 'token.pin-set'
  | 'sso.providerAdded'
  | 'sso.providerRemoved'
  | 'sso.userLinked'
  | 'sso.userUnlinked'
  | 'registration.cardholderRegistered'
  | 'registration.failed'
  | 'registration.locked'
  | 'registration.refused'
  | 'companyRegistration.applied'
  | 'companyRegistration.failed'
  | 'companyRegistration.locked'
  | 'companyRegistration.refused'
  | 'cardApplication.applied'
  | 'cardApplication.refused';

export interface AuditEntry {
  userPk?: number | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * The insert of one audit row as SQL, for a caller that writes it in the same statement as the change
 * it records (a data-modifying CTE). `detail` must never carry a secret.
 */
export function auditInsert(event: AuditEvent, entry: AuditEntry): SQL {
  return auditInsertOf(event, entry.userPk ?? null, entry.ip ?? null, JSON.stringify(entry.detail ?? {}));
}

/** The one text of an audit row's insert, with values or placeholders. */
const auditInsertOf = (event: unknown, userPk: unknown, ip: unknown, detail: unknown): SQL =>
  sql`insert into ${auditEvents} (event, user_pk, ip, detail)
    values (${event}, ${userPk}::integer, ${ip}::text, ${detail}::jsonb)`;

/**
 * auditInsert for a prepared statement (db/prepared.ts): the same insert with placeholders, filled by
 * `auditValues`. One audit row a statement.
 */
export const auditInsertTemplate: SQL = auditInsertOf(
  sql.placeholder('auditEvent'),
  sql.placeholder('auditUserPk'),
  sql.placeholder('auditIp'),
  sql.placeholder('auditDetail'),
);

export function auditValues(event: AuditEvent, entry: AuditEntry): Record<string, unknown> {
  return {
    auditEvent: event,
    auditUserPk: entry.userPk ?? null,
    auditIp: entry.ip ?? null,
    auditDetail: JSON.stringify(entry.detail ?? {}),
  };
}

/** Records a sign-in event. `detail` must never carry a secret (password, code, answer, session id). */
export async function audit(db: Executor, event: AuditEvent, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    event,
    userPk: entry.userPk ?? null,
    ip: entry.ip ?? null,
    detail: entry.detail ?? {},
  });
}

/** Events of administrators' changes (the audit trail of issue 7). */
export type AdminAuditEvent =
  | 'company.registrationCodeChanged'
  | 'registration.unlocked'
  | 'companyRegistration.invited'
  | 'companyRegistration.approved'
  | 'companyRegistration.declined'
  | 'companyRegistration.unlocked'
  | 'companyRegistration.withdrawn'
  | 'cardApplication.approved'
  | 'cardApplication.declined'
  | 'expenseType.created'
  | 'expenseType.updated'
  | 'expenseType.deleted'
  | 'expensePolicy.saved'
  | 'mileageRate.created'
  | 'mileageRate.updated'
  | 'mileageRate.deleted'
  | 'taxRate.created'
  | 'taxRate.updated'
  | 'taxRate.deleted'
  | 'approvalProfile.created'
  | 'approvalProfile.updated'
  | 'approvalProfile.deleted'
  | 'approvalThreshold.created'
  | 'approvalThreshold.deleted'
  | 'expenseReport.created'
  | 'expenseReport.updated'
  | 'expenseReport.deleted'
  | 'expenseReport.submitted'
  | 'expenseReport.approved'
  | 'expenseReport.sentBack'
  | 'expenseReport.rerouted'
  | 'expenseLine.added'
  | 'expenseLine.changed'
  | 'expenseLine.removed'
  | 'expenseLine.receiptAttached'
  | 'expenseLine.receiptRemoved'
  | 'user.created'
  | 'user.updated'
  | 'user.deactivated'
  | 'user.reactivated'
  | 'user.unlocked'
  | 'audit.exported'
  | 'company.created'
  | 'company.updated'
  | 'company.deactivated'
  | 'company.reactivated'
  | 'company.deleted'
  | 'orgPoint.created'
  | 'orgPoint.updated'
  | 'orgPoint.deactivated'
  | 'orgPoint.reactivated'
  | 'orgPoint.deleted'
  | 'orgPoint.uploaded'
  | 'cardholder.updated'
  | 'cardholder.deactivated'
  | 'cardholder.reactivated'
  | 'account.issued'
  | 'account.statusChanged'
  | 'account.closed'
  | 'account.moved'
  | 'accountGroup.created'
  | 'accountGroup.updated'
  | 'accountGroup.deactivated'
  | 'accountGroup.reactivated'
  | 'realCard.created'
  | 'realCard.updated'
  | 'realCard.deactivated'
  | 'realCard.reactivated'
  | 'realCard.deleted'
  | 'transaction.reviewed'
  | 'transaction.approved'
  | 'transaction.locked'
  | 'transactions.imported'
  | 'transactions.refused'
  | 'transaction.split'
  | 'transaction.unsplit'
  | 'transaction.disputed'
  | 'transaction.allocated'
  | 'transactions.massAllocated'
  | 'transactions.massAllocationUndone'
  | 'transactions.exported'
  | 'issuerCode.created'
  | 'issuerCode.updated'
  | 'issuerCode.deleted'
  | 'cardholder.reasonsChanged'
  | 'profile.updated'
  | 'role.created'
  | 'role.updated'
  | 'user.rolesChanged'
  | 'multiUser.linked'
  | 'multiUser.unlinked'
  | 'multiUser.confirmed'
  | 'multiUser.declined'
  | 'multiUser.switched'
  | 'accessAs.started'
  | 'accessAs.ended'
  | 'profile.softToken'
  | 'issuer.created'
  | 'issuer.updated'
  | 'issuer.deactivated'
  | 'issuer.reactivated'
  | 'issuer.deleted'
  | 'issuerGroup.created'
  | 'issuerGroup.updated'
  | 'issuerGroup.deactivated'
  | 'issuerGroup.reactivated'
  | 'companyGroup.created'
  | 'companyGroup.updated'
  | 'companyGroup.deactivated'
  | 'companyGroup.reactivated'
  | 'programOption.updated'
  | 'uniqueKey.refused'
  | 'accountingCode.created'
  | 'accountingCode.updated'
  | 'accountingCode.deactivated'
  | 'accountingCode.reactivated'
  | 'accountingCode.deleted'
  | 'accountingValue.created'
  | 'accountingValue.updated'
  | 'accountingValue.deactivated'
  | 'accountingValue.reactivated'
  | 'accountingValue.deleted'
  | 'accountingValue.uploaded'
  | 'customField.created'
  | 'customField.updated'
  | 'customField.deleted'
  | 'transaction.customValuesChanged'
  | 'accountingSubset.created'
  | 'accountingSubset.updated'
  | 'accountingSubset.deleted'
  | 'accountingScheme.created'
  | 'accountingScheme.updated'
  | 'accountingScheme.deleted'
  | 'account.codingChanged'
  | 'accountGroup.schemeChanged';

export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

/** Fields that never reach an audit row, whatever a caller passes (secrets and their hashes). */
const SECRET_FIELDS = /password|answer|pin|secret|token|hash|session|otp|code/i;

/**
 * The before/after of each changed, non-secret field among `fields` (`before` undefined: a creation).
 * Dates are written as ISO strings.
 */
export function diffChanges(
  before: object | undefined,
  after: object,
  fields: readonly string[],
): AuditChanges {
  const prior = before as Record<string, unknown> | undefined;
  const next = after as Record<string, unknown>;
  const norm = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));
  const out: AuditChanges = {};
  for (const field of fields) {
    if (SECRET_FIELDS.test(field)) continue;
    const a = norm(prior?.[field]);
    const b = norm(next[field]);
    if (before !== undefined && JSON.stringify(a) === JSON.stringify(b)) continue;
    out[field] = { before: before === undefined ? null : a, after: b };
  }
  return out;
}

export interface AdminAuditEntry {
  /**
   * Who: the acting user (pass the caller itself). In an access-as-user session the row names the
   * person really working (`accessedBy`) as the actor and the user it worked as in `detail.accessedAs`.
   */
  actor: { userPk: number; userId: string; accessedBy?: { pk: number; userId: string } | null };
  /** What: the kind of record and its id (for a user, its user ID). */
  entity: string;
  entityId: string;
  /** The user the change is about, when it is one (it scopes who may read the row). */
  subjectPk?: number | null;
  changes?: AuditChanges;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Records an administrator's change: who, what, the change and (by default now) when. Call it with
 * the transaction that makes the change. Never pass a secret: diffChanges leaves them out.
 */
export async function auditAdmin(
  db: Executor,
  event: AdminAuditEvent,
  entry: AdminAuditEntry,
): Promise<void> {
  const changes = entry.changes
    ? Object.fromEntries(Object.entries(entry.changes).filter(([field]) => !SECRET_FIELDS.test(field)))
    : null;
  const real = entry.actor.accessedBy ?? { pk: entry.actor.userPk, userId: entry.actor.userId };
  const detail = entry.actor.accessedBy
    ? { ...entry.detail, accessedAs: entry.actor.userId }
    : (entry.detail ?? {});
  await db.insert(auditEvents).values({
    event,
    userPk: entry.subjectPk ?? null,
    ip: entry.ip ?? null,
    detail,
    actorPk: real.pk,
    actorUserId: real.userId,
    entity: entry.entity,
    entityId: entry.entityId,
    changes,
  });
}

/**
 * Every event written here is one the audit screen names (packages/domain AUDIT_EVENTS, translated in
 * every language): an event missing there fails the type check on this line.
 */
const _everyEventNamed: [Exclude<AuditEvent | AdminAuditEvent, AuditEventCode>] extends [never]
  ? true
  : never = true;
void _everyEventNamed;
