import type { ChangePasswordServiceUrls } from '@cardportal/domain';
import { requestJson } from './client.ts';

/** `GET /sdportal/rest/changepasswordserviceurls`: changePassword, autoLogout, cancelPasswordReset. */
export function getChangePasswordServiceUrls(
  signal?: AbortSignal,
): Promise<Partial<ChangePasswordServiceUrls>> {
  return requestJson<Partial<ChangePasswordServiceUrls>>('/sdportal/rest/changepasswordserviceurls', {
    signal,
  });
}
