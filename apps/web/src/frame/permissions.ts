import {
  canAdminister,
  creatableUserTypes,
  mayOnOrganisation,
  USER_TYPE_CODES,
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
