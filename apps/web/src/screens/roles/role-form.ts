import {
  type NewRoleBody,
  PERMISSIONS,
  type Permission,
  type RolePatch,
  type RoleSummary,
  type UserType,
} from '@cardportal/domain';

/** The role form's values (the schema's output: texts trimmed). */
export interface RoleFormValues {
  issuerNumber: string;
  name: string;
  description: string;
  permissions: Permission[];
  active: boolean;
}

export type RoleField = keyof RoleFormValues;

/** Server field names (`permissions.0`, ...) that land on a form field. */
export const ROLE_FIELD_ALIAS: Partial<Record<string, RoleField>> = Object.fromEntries(
  PERMISSIONS.map((_p, i) => [`permissions.${i}`, 'permissions' as RoleField]),
);

/** Error codes that belong to one field. */
export const ROLE_CODE_FIELDS: Partial<Record<string, RoleField>> = {
  'role.name.exists': 'name',
  'role.issuer.unknown': 'issuerNumber',
};

/** Whether a caller names the issuer of a new role: it has no issuer of its own to default to. */
export function asksIssuer(caller: UserType): boolean {
  return caller === 'Z' || caller === 'H';
}

export function initialRoleValues(role?: RoleSummary): RoleFormValues {
  return {
    issuerNumber: role?.issuerNumber ?? '',
    name: role?.name ?? '',
    description: role?.description ?? '',
    permissions: PERMISSIONS.filter((p) => role?.permissions.includes(p)),
    active: role ? role.active : true,
  };
}

const ordered = (list: readonly Permission[]) => PERMISSIONS.filter((p) => list.includes(p));

/** The body of `POST /app/api/roles` for these values. */
export function newRoleBody(values: RoleFormValues, withIssuer: boolean): NewRoleBody {
  return {
    ...(withIssuer && values.issuerNumber.trim() ? { issuerNumber: values.issuerNumber.trim() } : {}),
    name: values.name.trim(),
    description: values.description.trim(),
    permissions: ordered(values.permissions),
  };
}

/** The changed fields only, for `PATCH /app/api/roles/:id`. */
export function rolePatch(values: RoleFormValues, role: RoleSummary): RolePatch {
  const patch: RolePatch = {};
  if (values.name.trim() !== role.name) patch.name = values.name.trim();
  if (values.description.trim() !== role.description) patch.description = values.description.trim();
  const permissions = ordered(values.permissions);
  if (permissions.join(',') !== ordered(role.permissions).join(',')) patch.permissions = permissions;
  if (values.active !== role.active) patch.active = values.active;
  return patch;
}
