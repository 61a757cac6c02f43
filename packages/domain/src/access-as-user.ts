import { z } from 'zod';
import type { Permission } from './roles.ts';
import { isSystemReadOnly, USER_TYPE_INFO, type UserStatus, type UserType } from './user-types.ts';

/**
 * Access as user (seed 001 §6: a super user "may alias or log in as another user"; "Access As User must
 * be a company admin or below and not an associated-account user"). Decisions in docs/multi-user.md.
 */
export type AccessAsProblem =
  | 'accessAs.notPermitted'
  | 'accessAs.alreadyActing'
  | 'accessAs.self'
  | 'accessAs.typeNotAllowed'
  | 'accessAs.notActive'
  | 'accessAs.linkedUser'
  | 'accessAs.notAdministered'
  | 'accessAs.optionOff';

export interface AccessAsCaller {
  type: UserType;
  pk: number;
  permissions: ReadonlySet<Permission>;
  /** The session is itself an access-as session. */
  acting: boolean;
}

export interface AccessAsTarget {
  pk: number;
  type: UserType;
  status: UserStatus;
  /** A member of a multi-user link (an "associated-account user"). */
  linked: boolean;
  /** The caller may modify this user (type rule with peer authority, and scope). */
  administered: boolean;
  /** The issuer and company program option `accessAsUser` is on for the target's company. */
  optionOn: boolean;
}

/**
 * Why the caller may not work as the target, or undefined: the caller needs the `accessAsUser`
 * permission (a super user) and must not already be acting as someone; the target is a company
 * program administrator or below (C, O, S, A), active, not linked, administered by the caller (which
 * leaves out a system administrator on company users: read-only) and in a company with the option on.
 */
export function checkAccessAs(caller: AccessAsCaller, target: AccessAsTarget): AccessAsProblem | undefined {
  if (!caller.permissions.has('accessAsUser')) return 'accessAs.notPermitted';
  if (caller.acting) return 'accessAs.alreadyActing';
  if (caller.pk === target.pk) return 'accessAs.self';
  if (USER_TYPE_INFO[target.type].level > USER_TYPE_INFO.C.level) return 'accessAs.typeNotAllowed';
  if (!target.administered || isSystemReadOnly(caller.type, target.type)) return 'accessAs.notAdministered';
  if (target.status !== 'Active') return 'accessAs.notActive';
  if (target.linked) return 'accessAs.linkedUser';
  if (!target.optionOn) return 'accessAs.optionOff';
  return undefined;
}

/** `POST /app/api/access-as`: start working as this user. */
export const accessAsBodySchema = z.strictObject({
  userId: z.string({ error: 'accessAs.userId.invalid' }).trim().min(1).max(64),
});
export type AccessAsBody = z.infer<typeof accessAsBodySchema>;
