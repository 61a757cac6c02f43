import { requestJson } from './client.ts';

/** The new-PIN action enumeration of spec §3, as the query value. */
export type RsaAction = 'newpin' | 'nexttoken';

export interface RsaInformation {
  shouldAccess: boolean;
  forwardFormEndpoint?: string;
  ldapId?: string;
  b2BAlias?: string;
}

/** `GET /sdportal/rest/rsapin/information?action=`, no-cache. */
export function getRsaInformation(action: RsaAction, signal?: AbortSignal): Promise<RsaInformation> {
  return requestJson<RsaInformation>(`/sdportal/rest/rsapin/information?${new URLSearchParams({ action })}`, {
    noCache: true,
    signal,
  });
}
