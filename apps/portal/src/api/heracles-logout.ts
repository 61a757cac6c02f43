import { requestText } from './client.ts';

/** `GET /heracles/logout`: ends any session; answers the logout screen URL. */
export function heraclesLogout(signal?: AbortSignal): Promise<string> {
  return requestText('/heracles/logout', { signal });
}
