import { USER_NAME_MAX_LENGTH } from './api/users.ts';
import { LIMITS } from './limits.ts';
import { SECURITY_ANSWER_MAX_LENGTH } from './security-questions.ts';

/**
 * E-mail and security-answer rules of seed 001 §5. Results are message keys; screens show
 * `validation.{key}` from the Messages bundle.
 */

export type EmailProblem = 'email.required' | 'email.format' | 'email.tooLong';
export type EmailConfirmProblem = 'emailConfirm.required' | 'emailConfirm.mismatch';

/**
 * One address, local@domain.tld: no spaces, no angle brackets or quotes (never a display name), a dot
 * in the domain, no empty labels. Deliberately simple: the mail server is the final judge.
 */
const EMAIL =
  /^[^\s@<>"(),;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** E-mail format checked; under 60 characters (seed 001 §5). */
export function checkEmail(email: string): EmailProblem | undefined {
  if (email.length === 0) return 'email.required';
  if (email.length > LIMITS.emailMaxLength) return 'email.tooLong';
  if (!EMAIL.test(email) || email.includes('..')) return 'email.format';
  return undefined;
}

/** The address and its confirmation: the address valid, the confirmation present and equal (case-insensitive). */
export function checkEmailPair(
  email: string,
  confirmation: string,
): { email?: EmailProblem; emailConfirm?: EmailConfirmProblem } {
  const problems: { email?: EmailProblem; emailConfirm?: EmailConfirmProblem } = {};
  const first = checkEmail(email);
  if (first) problems.email = first;
  if (confirmation.length === 0) problems.emailConfirm = 'emailConfirm.required';
  else if (confirmation.toLowerCase() !== email.toLowerCase())
    problems.emailConfirm = 'emailConfirm.mismatch';
  return problems;
}

export type SecurityAnswerProblem =
  | 'securityAnswer.required'
  | 'securityAnswer.tooShort'
  | 'securityAnswer.tooLong'
  | 'securityAnswer.spaces';

/** A security answer a user sets: at least 4 characters, no spaces (seed 001 §5), at most 100. */
export function checkSecurityAnswer(answer: string): SecurityAnswerProblem[] {
  if (answer.length === 0) return ['securityAnswer.required'];
  const problems: SecurityAnswerProblem[] = [];
  const length = [...answer].length;
  if (/\s/.test(answer)) problems.push('securityAnswer.spaces');
  if (length < LIMITS.securityAnswerMinLength) problems.push('securityAnswer.tooShort');
  if (length > SECURITY_ANSWER_MAX_LENGTH) problems.push('securityAnswer.tooLong');
  return problems;
}

/** A person's first or last name: required, at most USER_NAME_MAX_LENGTH characters, no markup or control characters. */
export function checkPersonName(field: 'firstName' | 'lastName', value: string): string | undefined {
  const text = value.trim();
  if (text.length === 0) return `${field}.required`;
  if ([...text].length > USER_NAME_MAX_LENGTH) return `${field}.tooLong`;
  if (/[<>\p{Cc}]/u.test(text)) return `${field}.invalidCharacters`;
  return undefined;
}
