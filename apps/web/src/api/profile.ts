import type { Profile, SoftTokenEnrolment } from '@cardportal/domain';
import { requestJson } from './client.ts';

const BASE = '/app/api/profile';

/** `GET /app/api/profile` */
export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return requestJson<Profile>(BASE, { signal });
}

/** `PUT /app/api/profile/language` */
export function setLanguage(locale: string): Promise<Profile> {
  return requestJson<Profile>(`${BASE}/language`, { method: 'PUT', json: { locale } });
}

/** `PUT /app/api/profile/challenge-question` */
export function setChallengeQuestion(body: {
  questionId: string;
  answer: string;
  currentPassword: string;
}): Promise<Profile> {
  return requestJson<Profile>(`${BASE}/challenge-question`, { method: 'PUT', json: body });
}

/** `PUT /app/api/profile/two-factor` */
export function setTwoFactor(enabled: boolean, currentPassword: string): Promise<Profile> {
  return requestJson<Profile>(`${BASE}/two-factor`, { method: 'PUT', json: { enabled, currentPassword } });
}

/** `POST /app/api/profile/soft-token`: a new token, shown once. */
export function issueSoftToken(currentPassword: string): Promise<SoftTokenEnrolment> {
  return requestJson<SoftTokenEnrolment>(`${BASE}/soft-token`, { method: 'POST', json: { currentPassword } });
}
