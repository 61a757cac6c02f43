import type { CompanyApplicationBody } from '@cardportal/domain';
import { requestVoid } from './client.ts';

/**
 * `POST /sdportal/rest/registration/company` (docs/self-registration.md): the invitation's corporate code,
 * the company's name and its first program administrator. Success: the application is with the bank.
 */
export function applyForCompany(body: CompanyApplicationBody, signal?: AbortSignal): Promise<void> {
  return requestVoid('/sdportal/rest/registration/company', { method: 'POST', json: body, signal });
}
