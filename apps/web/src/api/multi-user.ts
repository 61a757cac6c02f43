import { APP_BASE, type UserLink } from '@cardportal/domain';
import { ApiError, requestJson } from './client.ts';

const link = (userId: string) => `/app/api/users/${encodeURIComponent(userId)}/link`;

/** `GET /app/api/users/:userId/link`: the user's multi-user link as an administrator sees it. */
export function getUserLink(userId: string, signal?: AbortSignal): Promise<UserLink> {
  return requestJson<UserLink>(link(userId), { signal });
}

/** `DELETE /app/api/users/:userId/link`: takes the user out of its link. */
export function unlinkUser(userId: string): Promise<UserLink> {
  return requestJson<UserLink>(link(userId), { method: 'DELETE' });
}

/** `POST /app/api/multi-user/links` → 201: links these user IDs (an existing link grows). */
export function linkUsers(userIds: string[]): Promise<UserLink> {
  return requestJson<UserLink>('/app/api/multi-user/links', { method: 'POST', json: { userIds } });
}

/**
 * `POST /app/api/access-as`: starts working as the user in a new session. Answers the application's
 * own address, which the browser must load again; anything else is refused.
 */
export async function accessAs(userId: string): Promise<string> {
  const { url } = await requestJson<{ url: string }>('/app/api/access-as', {
    method: 'POST',
    json: { userId },
  });
  if (url !== APP_BASE) throw new ApiError(200, 'response.invalid', 'unexpected address');
  return url;
}
