import { APP_BASE } from '@cardportal/domain';
import { requestJson, requestVoid } from './client.ts';

/** Session-level calls of the application: the multi-user choice and access-as-user's way back. */

/**
 * Accepts or declines the signed-in user's own unconfirmed link; accepting names the other user IDs it
 * was shown, so a link changed meanwhile is refused rather than confirmed unseen.
 */
export const confirmLink = (accept: boolean, userIds: readonly string[]) =>
  requestVoid('/app/api/multi-user/confirm', { method: 'POST', json: { accept, userIds } });

/** Works as this linked user ID for the rest of the session (a new session when it is another ID). */
export const chooseUser = (userId: string) =>
  requestJson<{ url: string }>('/app/api/multi-user/choose', { method: 'POST', json: { userId } });

/** Ends access as user: back to the super user's own session. */
export const returnFromAccessAs = () =>
  requestJson<{ url: string }>('/app/api/access-as/return', { method: 'POST' });

/** Loads the application again after the session changed; only ever our own home. */
export function reloadApp(url: string = APP_BASE): void {
  window.location.assign(url === APP_BASE ? url : APP_BASE);
}
