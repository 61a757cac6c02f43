import { requestJson } from './client.ts';

export interface SecurityQuestion {
  questionId: string;
  questionText: string;
}

/** `POST /cpae/public/users/securityquestions` `{ userId, locale }`: the user's question (a decoy for unknown IDs). */
export function getSecurityQuestion(
  userId: string,
  locale: string,
  signal?: AbortSignal,
): Promise<SecurityQuestion> {
  return requestJson<SecurityQuestion>('/cpae/public/users/securityquestions', {
    method: 'POST',
    json: { userId, locale },
    signal,
  });
}
