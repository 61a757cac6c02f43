import type { CardholderRegistrationBody } from '@cardportal/domain';
import { requestVoid } from './client.ts';

/**
 * `POST /sdportal/rest/registration/cardholder` (docs/self-registration.md): the card's proof and the
 * new user's ID and address. Success: the user exists and its first password is on its way by mail.
 */
export function registerCardholder(body: CardholderRegistrationBody, signal?: AbortSignal): Promise<void> {
  return requestVoid('/sdportal/rest/registration/cardholder', { method: 'POST', json: body, signal });
}
