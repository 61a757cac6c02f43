import type {
  CompanyApprovalBody,
  CompanyInvitationBody,
  CompanyRegistration,
  CompanyRegistrationList,
  CompanyRegistrationStatus,
} from '@cardportal/domain';
import { requestJson, requestVoid, withQuery } from './client.ts';

/** An issuer's company self-registrations (issue 18 item 1, docs/self-registration.md). */
const base = (number: string) => `/app/api/org/issuers/${encodeURIComponent(number)}/company-registrations`;
const one = (number: string, id: number) => `${base(number)}/${id}`;

/** A page of the list: newest first, by key (`after` / `before`), optionally of one status. */
export interface CompanyRegistrationPosition {
  status?: CompanyRegistrationStatus | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/** `GET …/company-registrations?status=&after=&before=` */
export function listCompanyRegistrations(
  number: string,
  position: CompanyRegistrationPosition,
  signal?: AbortSignal,
): Promise<CompanyRegistrationList> {
  return requestJson<CompanyRegistrationList>(
    withQuery(base(number), { status: position.status, after: position.after, before: position.before }),
    { signal },
  );
}

/** `POST …/company-registrations` → 201 (the server draws the code when none is given) */
export function inviteCompany(number: string, body: CompanyInvitationBody): Promise<CompanyRegistration> {
  return requestJson<CompanyRegistration>(base(number), { method: 'POST', json: body });
}

/** `DELETE …/company-registrations/:id` → 204 (an Invited one only) */
export function withdrawCompanyInvitation(number: string, id: number): Promise<void> {
  return requestVoid(one(number, id), { method: 'DELETE' });
}

/** `POST …/company-registrations/:id/approve`: the company and its first program administrator exist. */
export function approveCompanyRegistration(
  number: string,
  id: number,
  body: CompanyApprovalBody,
): Promise<CompanyRegistration> {
  return requestJson<CompanyRegistration>(`${one(number, id)}/approve`, { method: 'POST', json: body });
}

/** `POST …/company-registrations/:id/decline`: the applicant is told the reason. */
export function declineCompanyRegistration(
  number: string,
  id: number,
  reason: string,
): Promise<CompanyRegistration> {
  return requestJson<CompanyRegistration>(`${one(number, id)}/decline`, { method: 'POST', json: { reason } });
}

/** `POST …/company-registrations/:id/unlock` (no body; 409 `registration.notLocked`) */
export function unlockCompanyRegistration(number: string, id: number): Promise<CompanyRegistration> {
  return requestJson<CompanyRegistration>(`${one(number, id)}/unlock`, { method: 'POST' });
}
