import type { NewRoleBody, RoleList, RolePatch, RoleSummary, UserRoles } from '@cardportal/domain';
import { requestJson } from './client.ts';

const BASE = '/app/api/roles';
const userRoles = (userId: string) => `/app/api/users/${encodeURIComponent(userId)}/roles`;

/** `GET /app/api/roles`: the roles of the issuers in the caller's scope, and whether it may define them. */
export function listRoles(signal?: AbortSignal): Promise<RoleList> {
  return requestJson<RoleList>(BASE, { signal });
}

/** `POST /app/api/roles` → 201 */
export function createRole(body: NewRoleBody): Promise<RoleSummary> {
  return requestJson<RoleSummary>(BASE, { method: 'POST', json: body });
}

/** `PATCH /app/api/roles/:id` */
export function updateRole(id: number, patch: RolePatch): Promise<RoleSummary> {
  return requestJson<RoleSummary>(`${BASE}/${id}`, { method: 'PATCH', json: patch });
}

/** `GET /app/api/users/:userId/roles` */
export function getUserRoles(userId: string, signal?: AbortSignal): Promise<UserRoles> {
  return requestJson<UserRoles>(userRoles(userId), { signal });
}

/** `PUT /app/api/users/:userId/roles`: replaces the user's roles. */
export function setUserRoles(userId: string, roleIds: number[]): Promise<UserRoles> {
  return requestJson<UserRoles>(userRoles(userId), { method: 'PUT', json: { roleIds } });
}
