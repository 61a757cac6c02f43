import {
  isPermission,
  type NewRoleBody,
  newRoleBodySchema,
  PERMISSIONS,
  type Permission,
  type RolePatch,
  type RoleSummary,
  type UserType,
} from '@cardportal/domain';
import type { FieldProblems } from '../../lib/use-form.ts';

/** The role form's fields; `permissions` holds the chosen permissions comma-separated, `active` 'true'/'false'. */
export type RoleField = 'issuerNumber' | 'name' | 'description' | 'permissions' | 'active';

/** Server field names (`permissions.0`, ...) that land on a form field. */
export const ROLE_FIELD_ALIAS: Record<string, RoleField> = Object.fromEntries(
  PERMISSIONS.map((_p, i) => [`permissions.${i}`, 'permissions' as RoleField]),
);

/** Error codes that belong to one field. */
export const ROLE_CODE_FIELDS: Record<string, RoleField> = {
  'role.name.exists': 'name',
  'role.issuer.unknown': 'issuerNumber',
};

/** Whether a caller names the issuer of a new role: it has no issuer of its own to default to. */
export function asksIssuer(caller: UserType): boolean {
  return caller === 'Z' || caller === 'H';
}

export function initialRoleValues(role?: RoleSummary): Record<RoleField, string> {
  return {
    issuerNumber: role?.issuerNumber ?? '',
    name: role?.name ?? '',
    description: role?.description ?? '',
    permissions: (role?.permissions ?? []).join(','),
    active: role && !role.active ? 'false' : 'true',
  };
}

/** The chosen permissions, in the domain's order. */
export function permissionsOf(values: Record<RoleField, string>): Permission[] {
  const chosen = new Set(values.permissions.split(',').filter(isPermission));
  return PERMISSIONS.filter((p) => chosen.has(p));
}

/** The value of `permissions` with one permission switched on or off. */
export function togglePermission(values: Record<RoleField, string>, p: Permission, on: boolean): string {
  const chosen = new Set(permissionsOf(values));
  if (on) chosen.add(p);
  else chosen.delete(p);
  return PERMISSIONS.filter((x) => chosen.has(x)).join(',');
}

/** The body of `POST /app/api/roles` for these values. */
export function newRoleBody(values: Record<RoleField, string>, withIssuer: boolean): NewRoleBody {
  return {
    ...(withIssuer && values.issuerNumber.trim() ? { issuerNumber: values.issuerNumber.trim() } : {}),
    name: values.name.trim(),
    description: values.description.trim(),
    permissions: permissionsOf(values),
  };
}

/** The changed fields only, for `PATCH /app/api/roles/:id`. */
export function rolePatch(values: Record<RoleField, string>, role: RoleSummary): RolePatch {
  const patch: RolePatch = {};
  if (values.name.trim() !== role.name) patch.name = values.name.trim();
  if (values.description.trim() !== role.description) patch.description = values.description.trim();
  const permissions = permissionsOf(values);
  if (permissions.join(',') !== PERMISSIONS.filter((p) => role.permissions.includes(p)).join(','))
    patch.permissions = permissions;
  const active = values.active === 'true';
  if (active !== role.active) patch.active = active;
  return patch;
}

/** The client's checks: the domain's schema (the server runs the same one), as message keys per field. */
export function validateRole(
  values: Record<RoleField, string>,
  options: { withIssuer: boolean },
): FieldProblems<RoleField> {
  const problems: FieldProblems<RoleField> = {};
  const parsed = newRoleBodySchema.safeParse(newRoleBody(values, options.withIssuer));
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '') as RoleField;
      if (field in values && !problems[field])
        problems[field] = /^[a-z][A-Za-z.]*$/.test(issue.message) ? issue.message : 'invalidEntry';
    }
  if (options.withIssuer && !values.issuerNumber.trim()) problems.issuerNumber = 'role.issuer.unknown';
  return problems;
}
