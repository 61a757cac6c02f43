import type { SessionWarningContent } from '@cardportal/ui';
import { requestJson, requestVoid } from './client.ts';

/** `GET /sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json?cobrandHost=`. */
export function getSessionWarningContent(
  cobrandHost: string,
  signal?: AbortSignal,
): Promise<Partial<SessionWarningContent>> {
  return requestJson<Partial<SessionWarningContent>>(
    `/sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json?${new URLSearchParams({ cobrandHost })}`,
    { signal, noCache: true },
  );
}

/** `GET /sdportal/rest/sessionExpire/pingPortal.json`: renews the session; throws when there is none. */
export function pingPortal(signal?: AbortSignal): Promise<void> {
  return requestVoid('/sdportal/rest/sessionExpire/pingPortal.json', { signal, noCache: true });
}
