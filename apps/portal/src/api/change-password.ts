import { requestVoid } from './client.ts';

export interface ChangePasswordRequest {
  userId: string;
  oldCredential: string;
  newCredential: string;
}

/** `POST /services/authentication-service/public/changePassword`. */
export function changePassword(request: ChangePasswordRequest, signal?: AbortSignal): Promise<void> {
  return requestVoid('/services/authentication-service/public/changePassword', {
    method: 'POST',
    json: request,
    signal,
  });
}
