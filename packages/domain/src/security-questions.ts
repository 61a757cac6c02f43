/** The catalogue of security questions; their texts are `securityQuestion.{id}` in the Messages bundle. */
export const SECURITY_QUESTION_IDS = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8'] as const;
export type SecurityQuestionId = (typeof SECURITY_QUESTION_IDS)[number];

export const SECURITY_ANSWER_MAX_LENGTH = 100;

/** Answers compare case-insensitively, with spaces collapsed and Unicode normalised. */
export function normaliseAnswer(answer: string): string {
  return answer.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}
