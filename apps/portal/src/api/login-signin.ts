import type { LoginDescriptor } from '@cardportal/domain';
import { requestJson } from './client.ts';

/** `POST /sdportal/rest/user/loginSignin` `{ userId }`: the login descriptor. */
export function loginSignin(userId: string, signal?: AbortSignal): Promise<LoginDescriptor> {
  return requestJson<LoginDescriptor>('/sdportal/rest/user/loginSignin', {
    method: 'POST',
    json: { userId },
    signal,
  });
}
