/**
 * User types, statuses and who may administer whom (seed 001 §4, §6). The decisions behind the ordering
 * and the scopes are written down in docs/authorization.md.
 */

/** User types by code (seed 001 §6), with their catalogue names (screens show `app.userType.{code}`). */
export const USER_TYPES = {
  A: 'Cardholder',
  C: 'Company Program Administrator',
  G: 'Company Group Administrator',
  H: 'Issuer Group Administrator',
  I: 'Issuer Program Administrator',
  O: 'Level Manager',
  S: 'Account Group Manager',
  Z: 'Smart Data System Administrator',
} as const;
export type UserType = keyof typeof USER_TYPES;
export const USER_TYPE_CODES = Object.keys(USER_TYPES) as UserType[];

export function isUserType(value: unknown): value is UserType {
  return typeof value === 'string' && Object.hasOwn(USER_TYPES, value);
}

/** User statuses (seed 001 §4). Only Active users may sign in, be linked or be given a role. */
export const USER_STATUSES = ['Active', 'Inactive', 'Locked'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** What part of the organisation a user of a type sees and administers. */
export type ScopeKind =
  | 'system'
  | 'issuer-group'
  | 'issuer'
  | 'company-group'
  | 'company'
  | 'org-subtree'
  | 'account-group'
  | 'own-cardholder';

/** The columns of a user that place it in the organisation (users table, nullable each). */
export type ScopeField =
  | 'issuerGroupId'
  | 'issuerId'
  | 'companyGroupId'
  | 'companyId'
  | 'orgPointId'
  | 'accountGroupId'
  | 'cardholderId';

export interface UserTypeInfo {
  code: UserType;
  name: string;
  /** Administrative level: higher administers lower (docs/authorization.md). Equal levels are peers. */
  level: number;
  scope: ScopeKind;
  /** Placement a user of this type must have; anything else stays empty. */
  scopeFields: readonly ScopeField[];
  /** May create and modify users below it (managers O and S only view their cardholders). */
  administersUsers: boolean;
}

const info = (
  code: UserType,
  level: number,
  scope: ScopeKind,
  scopeFields: readonly ScopeField[],
  administersUsers: boolean,
): UserTypeInfo => ({ code, name: USER_TYPES[code], level, scope, scopeFields, administersUsers });

export const USER_TYPE_INFO: Readonly<Record<UserType, UserTypeInfo>> = {
  Z: info('Z', 7, 'system', [], true),
  H: info('H', 6, 'issuer-group', ['issuerGroupId'], true),
  I: info('I', 5, 'issuer', ['issuerId'], true),
  G: info('G', 4, 'company-group', ['companyGroupId'], true),
  C: info('C', 3, 'company', ['companyId'], true),
  O: info('O', 2, 'org-subtree', ['companyId', 'orgPointId'], false),
  S: info('S', 2, 'account-group', ['companyId', 'accountGroupId'], false),
  A: info('A', 1, 'own-cardholder', ['companyId', 'cardholderId'], false),
};

/** User types from the highest administrative level down (ties in code order). */
export const USER_TYPES_BY_LEVEL: readonly UserType[] = [...USER_TYPE_CODES].sort(
  (a, b) => USER_TYPE_INFO[b].level - USER_TYPE_INFO[a].level || a.localeCompare(b),
);

export const ADMIN_ACTIONS = ['view', 'create', 'modify'] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export interface AdministerOptions {
  /** Peer-user authority (seed 001 §6: "peer-user modify authority"): lets a user administer its own type. */
  peerAuthority?: boolean;
}

/**
 * Whether a user of type `caller` may view, create or modify users of type `target`, by type alone;
 * the scope (isInScope) must hold too. Rules (docs/authorization.md):
 * - a cardholder administers nobody (its own data is My Profile, not administration);
 * - a higher level views every lower type; it creates and modifies them when it administers users
 *   (the managers O and S view their cardholders only);
 * - its own type: view always; create and modify only with peer authority (implied for Z);
 * - another type on the same level (O and S) or a higher level: never.
 */
export function canAdminister(
  caller: UserType,
  target: UserType,
  action: AdminAction,
  options: AdministerOptions = {},
): boolean {
  const from = USER_TYPE_INFO[caller];
  const to = USER_TYPE_INFO[target];
  if (caller === 'A') return false;
  if (caller === target) {
    if (action === 'view') return true;
    return from.administersUsers && (caller === 'Z' || options.peerAuthority === true);
  }
  if (from.level <= to.level) return false;
  return action === 'view' || from.administersUsers;
}

/** The types a caller may create (for a user-type picker), highest first. */
export function creatableUserTypes(caller: UserType, options: AdministerOptions = {}): UserType[] {
  return USER_TYPES_BY_LEVEL.filter((t) => canAdminister(caller, t, 'create', options));
}

type Id = number | null | undefined;

/**
 * Where a user or record sits, fully resolved by the server (a company's group, issuer and issuer
 * group filled in). `orgPath` lists the org point ids from the record's own org point up to the top.
 */
export interface Placement {
  issuerGroupId?: Id;
  issuerId?: Id;
  companyGroupId?: Id;
  companyId?: Id;
  orgPath?: readonly number[];
  accountGroupId?: Id;
  cardholderId?: Id;
  userPk?: Id;
}

/** The caller: its type and its own scope columns (and its user pk, for own-cardholder). */
export interface CallerScope {
  type: UserType;
  userPk?: Id;
  issuerGroupId?: Id;
  issuerId?: Id;
  companyGroupId?: Id;
  companyId?: Id;
  orgPointId?: Id;
  accountGroupId?: Id;
  cardholderId?: Id;
}

const same = (a: Id, b: Id): boolean => a !== null && a !== undefined && a === b;

/**
 * Whether the target lies inside the caller's scope. Fails closed: a caller whose own scope column is
 * empty sees nothing (never everything).
 */
export function isInScope(caller: CallerScope, target: Placement): boolean {
  switch (USER_TYPE_INFO[caller.type].scope) {
    case 'system':
      return true;
    case 'issuer-group':
      return same(caller.issuerGroupId, target.issuerGroupId);
    case 'issuer':
      return same(caller.issuerId, target.issuerId);
    case 'company-group':
      return same(caller.companyGroupId, target.companyGroupId);
    case 'company':
      return same(caller.companyId, target.companyId);
    case 'org-subtree':
      return (
        same(caller.companyId, target.companyId) &&
        caller.orgPointId !== null &&
        caller.orgPointId !== undefined &&
        (target.orgPath ?? []).includes(caller.orgPointId)
      );
    case 'account-group':
      return same(caller.companyId, target.companyId) && same(caller.accountGroupId, target.accountGroupId);
    case 'own-cardholder':
      return same(caller.userPk, target.userPk) || same(caller.cardholderId, target.cardholderId);
  }
}

/** Type rule and scope together: the one question an endpoint asks about a target user. */
export function mayAdministerUser(
  caller: CallerScope,
  target: Placement & { type: UserType },
  action: AdminAction,
  options: AdministerOptions = {},
): boolean {
  return canAdminister(caller.type, target.type, action, options) && isInScope(caller, target);
}

/** Scope columns a user of `type` must have but lacks, as message keys (`userScope.{field}Required`). */
export function checkUserScope(
  type: UserType,
  scope: Partial<Record<ScopeField, Id>>,
): `userScope.${ScopeField}Required`[] {
  return USER_TYPE_INFO[type].scopeFields
    .filter((f) => scope[f] === null || scope[f] === undefined)
    .map((f) => `userScope.${f}Required` as const);
}

/**
 * The system administrator's read-only notice (seed 001 §6: "System administrators see a read-only
 * notice on some pages"; docs/authorization.md): a system administrator (Z) maintains the users at
 * issuer level and above (Z, H, I); the users of the banks' corporate customers (G, C, O, S, A) are
 * maintained by their own administrators, so Z sees them read-only and the server refuses its writes.
 */
export function isSystemReadOnly(caller: UserType, target: UserType): boolean {
  return caller === 'Z' && USER_TYPE_INFO[target].level <= USER_TYPE_INFO.G.level;
}
