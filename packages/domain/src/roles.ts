import { z } from 'zod';
import { may } from './authorization.ts';
import { USER_TYPE_INFO, type UserStatus, type UserType } from './user-types.ts';

/**
 * Roles and the permissions they carry (seed 001 §6: "peer-user modify authority is needed to add
 * roles", "linking requires user-information modify and peer-level authority", "super user (may alias
 * or log in as another user)"). A role is a named set of permissions an issuer defines; users get
 * roles; a user's permissions are the union of its active roles'. Decisions in docs/authorization.md.
 */
export const PERMISSIONS = ['peerUserModify', 'linkUsers', 'accessAsUser', 'approveTransactions'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

/** Longest role name and description. */
export const ROLE_NAME_MAX_LENGTH = 40;
export const ROLE_DESCRIPTION_MAX_LENGTH = 255;
/** Most roles one user may hold (the multi-user link's combined limit is MULTI_USER_MAX_ROLES). */
export const USER_MAX_ROLES = 25;

/**
 * Whether a caller may give or take a role carrying `permissions`: an issuer-level administrator
 * (Z, H, I) any role of an issuer in its scope; a company-side administrator (G, C) only a role whose
 * every permission it holds itself, so nobody hands out more authority than they have.
 */
export function mayGrantRole(
  caller: UserType,
  callerPermissions: ReadonlySet<Permission>,
  permissions: readonly Permission[],
): boolean {
  if (may({ type: caller }, 'defineRoles')) return true;
  if (!USER_TYPE_INFO[caller].administersUsers) return false;
  return permissions.every((p) => callerPermissions.has(p));
}

/** Only active users may be given a role (seed 001 §4). */
export function mayHoldRole(status: UserStatus): boolean {
  return status === 'Active';
}

const name = z
  .string({ error: 'role.name.required' })
  .trim()
  .min(1, { error: 'role.name.required' })
  .max(ROLE_NAME_MAX_LENGTH, { error: 'role.name.tooLong' })
  .refine((v) => !/[<>\p{Cc}]/u.test(v), { error: 'role.name.invalidCharacters' });
const description = z
  .string({ error: 'role.description.invalid' })
  .trim()
  .max(ROLE_DESCRIPTION_MAX_LENGTH, { error: 'role.description.tooLong' })
  .refine((v) => !/[<>\p{Cc}]/u.test(v), { error: 'role.description.invalidCharacters' });
const permissions = z
  .array(z.enum(PERMISSIONS, { error: 'role.permission.invalid' }), { error: 'role.permission.invalid' })
  .max(PERMISSIONS.length, { error: 'role.permission.invalid' })
  .refine((list) => new Set(list).size === list.length, { error: 'role.permission.duplicate' });

/** `POST /app/api/roles`: a role of an issuer (by number; default the caller's own issuer). */
export const newRoleBodySchema = z.strictObject({
  issuerNumber: z
    .string({ error: 'role.issuer.unknown' })
    .trim()
    .regex(/^[0-9A-Za-z]{1,20}$/, { error: 'role.issuer.unknown' })
    .optional(),
  name,
  description: description.default(''),
  permissions,
});
export type NewRoleBody = z.infer<typeof newRoleBodySchema>;

/** `PATCH /app/api/roles/:id`. */
export const rolePatchSchema = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  permissions: permissions.optional(),
  active: z.boolean({ error: 'role.active.invalid' }).optional(),
});
export type RolePatch = z.infer<typeof rolePatchSchema>;

/** `PUT /app/api/users/:userId/roles`: the user's roles, as role ids (replaces the set). */
export const userRolesBodySchema = z.strictObject({
  roleIds: z
    .array(z.number().int().positive(), { error: 'roles.invalid' })
    .max(USER_MAX_ROLES, { error: 'roles.tooMany' })
    .refine((list) => new Set(list).size === list.length, { error: 'roles.duplicate' }),
});
export type UserRolesBody = z.infer<typeof userRolesBodySchema>;

export const roleSummarySchema = z
  .object({
    id: z.number().int(),
    issuerNumber: z.string(),
    issuerName: z.string(),
    name: z.string(),
    description: z.string(),
    permissions: z.array(z.enum(PERMISSIONS)),
    active: z.boolean(),
    /** Users holding it. */
    holders: z.number().int(),
  })
  .meta({ id: 'RoleSummary' });
export type RoleSummary = z.infer<typeof roleSummarySchema>;

/** `GET /app/api/roles`. */
export const roleListSchema = z
  .object({
    roles: z.array(roleSummarySchema),
    /** The caller may create and edit roles. */
    mayDefine: z.boolean(),
  })
  .meta({ id: 'RoleList' });
export type RoleList = z.infer<typeof roleListSchema>;

/** `GET /app/api/roles?issuer=`: the roles of one issuer in scope (its number). */
export const roleListQuerySchema = z.strictObject({
  issuer: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z]{1,20}$/, { error: 'role.issuer.unknown' })
    .optional(),
});

/** `GET /app/api/users/:userId/roles`. */
export const userRolesSchema = z
  .object({
    userId: z.string(),
    roles: z.array(roleSummarySchema),
    /** Roles the caller may give this user (active roles of the user's issuer it may grant). */
    assignable: z.array(roleSummarySchema),
    /** The caller may change this user's roles. */
    mayChange: z.boolean(),
  })
  .meta({ id: 'UserRoles' });
export type UserRoles = z.infer<typeof userRolesSchema>;
