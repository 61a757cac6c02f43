import { requestText } from './client.ts';

/** `GET /sdportal/rest/logoutrest/externalLogoutUrl`: text, the URL the client GETs next. */
export async function getExternalLogoutUrl(signal?: AbortSignal): Promise<string> {
  return (await requestText('/sdportal/rest/logoutrest/externalLogoutUrl', { signal })).trim();
}
