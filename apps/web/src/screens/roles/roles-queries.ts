import { newRoleBodySchema, type RoleList, type RoleSummary } from '@cardportal/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { createRole, listRoles, updateRole } from '../../api/roles.ts';
import { newRoleBody, type RoleFormValues, rolePatch } from './role-form.ts';

/** The roles screen's query keys: everything under `['roles']`. */
export const rolesKeys = {
  all: ['roles'] as const,
  list: ['roles', 'list'] as const,
};

/** The issuer's roles (a complete list) and whether the caller may define roles. */
export const rolesQuery = () =>
  queryOptions({ queryKey: rolesKeys.list, queryFn: ({ signal }) => listRoles(signal) });

/**
 * Creating or changing a role: the answer goes into the cached list at once, then the list is read
 * again (its order and holder counts are the server's).
 */
export function useSaveRole(withIssuer: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { values: RoleFormValues; role?: RoleSummary | undefined }) =>
      v.role
        ? updateRole(v.role.id, rolePatch(v.values, v.role))
        : createRole(newRoleBody(v.values, withIssuer)),
    onSuccess: (saved) => {
      client.setQueryData<RoleList>(rolesKeys.list, (current) =>
        current
          ? {
              ...current,
              roles: current.roles.some((r) => r.id === saved.id)
                ? current.roles.map((r) => (r.id === saved.id ? saved : r))
                : [...current.roles, saved],
            }
          : current,
      );
      return client.invalidateQueries({ queryKey: rolesKeys.all });
    },
  });
}

const { name, description, permissions } = newRoleBodySchema.shape;

/**
 * The role form's schema: the API's own rules for name, description and permissions (the server runs
 * the same), the issuer number where the caller names one, and the active switch.
 */
export const roleFormSchema = (withIssuer: boolean) =>
  z
    .object({
      issuerNumber: z.string(),
      name,
      description,
      permissions,
      active: z.boolean(),
    })
    .superRefine((v, ctx) => {
      if (!withIssuer) return;
      const parsed = newRoleBodySchema.shape.issuerNumber.safeParse(v.issuerNumber);
      if (!v.issuerNumber.trim() || !parsed.success)
        ctx.addIssue({ code: 'custom', path: ['issuerNumber'], message: 'role.issuer.unknown' });
    });
