import { LIMITS } from './limits.ts';

export type PasswordProblem =
  | 'required'
  | 'tooShort'
  | 'tooLong'
  | 'needsLetter'
  | 'needsDigitOrSpecial'
  | 'repeatedCharacters'
  | 'matchesUserId'
  | 'mismatch';

/**
 * The password construction rules of seed 001 §5 / DESIGN §5: 12–20 characters, letters plus digits
 * or special characters, no character more than twice in a row, not the user ID. History and the
 * current-password check need the server's data and live there.
 */
export function checkPasswordConstruction(password: string, userId = ''): PasswordProblem[] {
  if (password.length === 0) return ['required'];
  const problems: PasswordProblem[] = [];
  const length = [...password].length;
  if (length < LIMITS.passwordMinLength) problems.push('tooShort');
  if (length > LIMITS.passwordMaxLength) problems.push('tooLong');
  if (!/\p{L}/u.test(password)) problems.push('needsLetter');
  if (!/[^\p{L}\s]/u.test(password)) problems.push('needsDigitOrSpecial');
  if (/(.)\1\1/u.test(password)) problems.push('repeatedCharacters');
  if (userId && password.trim().toLowerCase() === userId.trim().toLowerCase()) problems.push('matchesUserId');
  return problems;
}

export function checkNewPassword(newPassword: string, confirmation: string, userId = ''): PasswordProblem[] {
  const problems = checkPasswordConstruction(newPassword, userId);
  if (newPassword !== confirmation) problems.push('mismatch');
  return problems;
}
