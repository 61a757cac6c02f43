import type { CardApplicationBody } from '@cardportal/domain';
import { requestVoid } from './client.ts';

/**
 * `POST /sdportal/rest/registration/card-application` (docs/self-registration.md): the company's code
 * and the applicant. Success: the application waits for the company's decision.
 */
export function applyForCard(body: CardApplicationBody, signal?: AbortSignal): Promise<void> {
  return requestVoid('/sdportal/rest/registration/card-application', { method: 'POST', json: body, signal });
}
