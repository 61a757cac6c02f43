import { requestJson } from './client.ts';

export interface OneTimePinResponse {
  /** The masked address the new code went to. */
  emailAddress: string;
}

/** `POST /services/authentication-service/protected/one-time-pins` `{ locale }`: sends a new code. */
export function requestOneTimePin(locale: string, signal?: AbortSignal): Promise<OneTimePinResponse> {
  return requestJson<OneTimePinResponse>('/services/authentication-service/protected/one-time-pins', {
    method: 'POST',
    json: { locale },
    noCache: true,
    signal,
  });
}
