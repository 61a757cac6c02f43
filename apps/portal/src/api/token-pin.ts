import { requestJson } from './client.ts';

export interface NewPinResponse {
  ok?: boolean;
  /** Where to go next (the logout screen: the user signs in again with the new PIN). */
  redirect?: string;
}

/** `POST /services/twofactortoken-service/protected/tokens/{ldapId}` `{ newPin }`. */
export function postNewPin(ldapId: string, newPin: string, signal?: AbortSignal): Promise<NewPinResponse> {
  return requestJson<NewPinResponse>(
    `/services/twofactortoken-service/protected/tokens/${encodeURIComponent(ldapId)}`,
    { method: 'POST', json: { newPin }, signal },
  );
}
