import type {
  CardApplication,
  CardApplicationApprovalBody,
  CardApplicationList,
  CardApplicationStatus,
} from '@cardportal/domain';
import { requestJson, withQuery } from './client.ts';

/** A company's new card account applications (issue 18 item 3, docs/self-registration.md). */
const base = (number: string) => `/app/api/org/companies/${encodeURIComponent(number)}/card-applications`;
const one = (number: string, id: number) => `${base(number)}/${id}`;

/** A page of the list: newest first, by key (`after` / `before`), optionally of one status. */
export interface CardApplicationPosition {
  status?: CardApplicationStatus | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/** `GET …/card-applications?status=&after=&before=` */
export function listCardApplications(
  number: string,
  position: CardApplicationPosition,
  signal?: AbortSignal,
): Promise<CardApplicationList> {
  return requestJson<CardApplicationList>(
    withQuery(base(number), { status: position.status, after: position.after, before: position.before }),
    { signal },
  );
}

/**
 * `POST …/card-applications/:id/approve`: the cardholder and the card account (the card the bank
 * issued) exist; the answer's decision holds the account, masked.
 */
export function approveCardApplication(
  number: string,
  id: number,
  body: CardApplicationApprovalBody,
): Promise<CardApplication> {
  return requestJson<CardApplication>(`${one(number, id)}/approve`, { method: 'POST', json: body });
}

/** `POST …/card-applications/:id/decline`: the applicant is told the reason. */
export function declineCardApplication(number: string, id: number, reason: string): Promise<CardApplication> {
  return requestJson<CardApplication>(`${one(number, id)}/decline`, { method: 'POST', json: { reason } });
}
