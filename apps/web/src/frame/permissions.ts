/** What the screens offer, asked of the one policy the server enforces (packages/domain authorization.ts). */
import { creatableUserTypes, may, type UserType } from '@cardportal/domain';

/** Whether the People screens are of any use to a type: it may view some user type. */
export function mayUsePeople(type: UserType): boolean {
  return may({ type }, 'viewUsers');
}

/** Whether a type may create users at all (the "Create user" entries). */
export function mayCreateUsers(type: UserType): boolean {
  return creatableUserTypes(type).length > 0;
}

/** Whether the Organisation screens are shown: the type may view companies. */
export function mayUseOrganisation(type: UserType): boolean {
  return may({ type }, 'viewCompanies');
}

/** Whether the audit trail is shown. */
export function mayUseAudit(type: UserType): boolean {
  return may({ type }, 'viewAudit');
}

/** Whether the Roles screen is shown. */
export function mayUseRoles(type: UserType): boolean {
  return may({ type }, 'viewRoles');
}

/** Whether "My cards" is shown: a cardholder's own card accounts. */
/** A cardholder's own expense reports (only cardholders create them: seed 001 §6). */
export function mayUseExpenseReports(type: UserType): boolean {
  return may({ type }, 'createExpenseReports');
}

export function mayUseMyCards(type: UserType): boolean {
  return type === 'A';
}

/** Whether the Issuers screens are shown: the type may view issuers (Z, H, I). */
export function mayUseIssuers(type: UserType): boolean {
  return may({ type }, 'viewIssuers');
}

/** Whether the Transaction Summary and the spend picture are shown (every type, within its scope). */
export function mayUseTransactions(type: UserType): boolean {
  return may({ type }, 'viewTransactions');
}

/** Whether the transaction file upload is offered (the system administrator and issuer administrators). */
export function mayImportTransactions(type: UserType): boolean {
  return may({ type }, 'importTransactions');
}

/** Whether the general-ledger export is offered (program administrators: H, I, G, C). */
export function mayExportTransactions(type: UserType): boolean {
  return may({ type }, 'exportTransactions');
}

/** Whether an issuer's code lists are shown: dispute reasons, account status codes, maintenance reasons (Z, H, I). */
export function mayViewIssuerCodes(type: UserType): boolean {
  return may({ type }, 'viewIssuerCodes');
}
