import { requestVoid } from './client.ts';
import type { SecurityQuestion } from './security-question.ts';

export interface ForgotPasswordRequest {
  userId: string;
  locale: string;
  cobrandName: string;
  question: SecurityQuestion;
  answer: string;
}

/**
 * `POST /services/authentication-service/public/forgotPassword`: the form of the sign-in flow, which
 * also carries cobrandName and the question object (securityQuestionSTO). Success: a temporary
 * password was e-mailed.
 */
export function requestTemporaryPassword(
  request: ForgotPasswordRequest,
  signal?: AbortSignal,
): Promise<void> {
  const { questionId, questionText } = request.question;
  return requestVoid('/services/authentication-service/public/forgotPassword', {
    method: 'POST',
    json: {
      userId: request.userId,
      locale: request.locale,
      cobrandName: request.cobrandName,
      securityQuestion: { questionId, questionResponse: request.answer },
      securityQuestionSTO: { questionId, questionText },
    },
    signal,
  });
}
