import type {
  CreateUserBody,
  SetUserStatusBody,
  UpdateUserBody,
  UserDetail,
  UserSearchResult,
  UserStatus,
  UserType,
} from '@cardportal/domain';
import { requestJson } from './client.ts';

const BASE = '/app/api/users';
const one = (userId: string) => `${BASE}/${encodeURIComponent(userId)}`;

export interface UserSearchParams {
  q?: string | undefined;
  type?: UserType | undefined;
  status?: UserStatus | undefined;
  page?: number | undefined;
}

/** `GET /app/api/users?q=&type=&status=&page=` */
export function searchUsers(params: UserSearchParams, signal?: AbortSignal): Promise<UserSearchResult> {
  const query = new URLSearchParams();
  if (params.q) query.set('q', params.q);
  if (params.type) query.set('type', params.type);
  if (params.status) query.set('status', params.status);
  if (params.page && params.page > 1) query.set('page', String(params.page));
  return requestJson<UserSearchResult>(`${BASE}?${query}`, { signal });
}

/** `GET /app/api/users/:userId` */
export function getUser(userId: string, signal?: AbortSignal): Promise<UserDetail> {
  return requestJson<UserDetail>(one(userId), { signal });
}

/** `POST /app/api/users` → 201 */
export function createUser(body: CreateUserBody): Promise<UserDetail> {
  return requestJson<UserDetail>(BASE, { method: 'POST', json: body });
}

/** `PATCH /app/api/users/:userId` */
export function updateUser(userId: string, body: UpdateUserBody): Promise<UserDetail> {
  return requestJson<UserDetail>(one(userId), { method: 'PATCH', json: body });
}

/** `PUT /app/api/users/:userId/status` */
export function setUserStatus(userId: string, status: SetUserStatusBody['status']): Promise<UserDetail> {
  return requestJson<UserDetail>(`${one(userId)}/status`, { method: 'PUT', json: { status } });
}

/** `POST /app/api/users/:userId/unlock` */
export function unlockUser(userId: string): Promise<UserDetail> {
  return requestJson<UserDetail>(`${one(userId)}/unlock`, { method: 'POST' });
}
