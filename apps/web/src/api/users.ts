import type {
  CreateUserBody,
  SetUserStatusBody,
  UpdateUserBody,
  UserBulkBody,
  UserBulkResult,
  UserDetail,
  UserSearchResult,
  UserStatus,
  UserType,
} from '@cardportal/domain';
import { requestJson, type SortParams, setSort } from './client.ts';

const BASE = '/app/api/users';
const one = (userId: string) => `${BASE}/${encodeURIComponent(userId)}`;

export interface UserSearchParams {
  q?: string | undefined;
  type?: UserType | undefined;
  status?: UserStatus | undefined;
  /** A cursor of the previous answer: the rows after it, or before it (docs/paging.md). */
  after?: string | undefined;
  before?: string | undefined;
  sort?: SortParams['sort'];
  dir?: SortParams['dir'];
}

/** `GET /app/api/users?q=&type=&status=&sort=&dir=&after=|before=` */
export function searchUsers(params: UserSearchParams, signal?: AbortSignal): Promise<UserSearchResult> {
  const query = new URLSearchParams();
  if (params.q) query.set('q', params.q);
  if (params.type) query.set('type', params.type);
  if (params.status) query.set('status', params.status);
  setSort(query, params);
  if (params.after) query.set('after', params.after);
  else if (params.before) query.set('before', params.before);
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

/** `POST /app/api/users/bulk`: one action on the chosen users; what became of each. */
export function bulkUsers(body: UserBulkBody): Promise<UserBulkResult> {
  return requestJson<UserBulkResult>(`${BASE}/bulk`, { method: 'POST', json: body });
}

/** `GET /app/api/users.csv?q=&type=&status=`: the address of every match as CSV (a download link). */
export function usersCsvUrl(
  params: Pick<UserSearchParams, 'q' | 'type' | 'status' | 'sort' | 'dir'>,
): string {
  const query = new URLSearchParams();
  if (params.q) query.set('q', params.q);
  if (params.type) query.set('type', params.type);
  if (params.status) query.set('status', params.status);
  setSort(query, params);
  return `/app/api/users.csv?${query}`;
}
