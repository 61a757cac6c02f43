import {
  canAdminister,
  creatableUserTypes,
  mayOnIssuers,
  mayOnOrganisation,
  USER_TYPE_CODES,
  USER_TYPE_INFO,
  type UserType,
} from '@cardportal/domain';

/** Whether the People screens are of any use to a type: it may view some user type. */
export function mayUsePeople(type: UserType): boolean {
  return USER_TYPE_CODES.some((target) => canAdminister(type, target, 'view'));
}

/** Whether a type may create users at all (the "Create user" entries). */
export function mayCreateUsers(type: UserType): boolean {
  return creatableUserTypes(type).length > 0;
}

/** Whether the Organisation screens are shown: the type may view companies. */
export function mayUseOrganisation(type: UserType): boolean {
  return mayOnOrganisation(type, 'viewCompanies');
}

/** Whether the audit trail is shown: the API answers administrators (types that administer users). */
export function mayUseAudit(type: UserType): boolean {
  return USER_TYPE_INFO[type].administersUsers;
}

/** Whether the Roles screen is shown: the roles API answers administrators (types that administer users). */
export function mayUseRoles(type: UserType): boolean {
  return USER_TYPE_INFO[type].administersUsers;
}

/** Whether "My cards" is shown: a cardholder's own card accounts. */
export function mayUseMyCards(type: UserType): boolean {
  return type === 'A';
}

/** Whether the Issuers screens are shown: the type may view issuers (Z, H, I). */
export function mayUseIssuers(type: UserType): boolean {
  return mayOnIssuers(type, 'viewIssuers');
}
