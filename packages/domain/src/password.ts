import { LIMITS } from './limits.ts';

export type PasswordProblem =
  | 'required'
  | 'tooShort'
  | 'tooLong'
  | 'needsLetter'
  | 'needsDigitOrSpecial'
  | 'repeatedCharacters'
  | 'matchesUserId'
  | 'mismatch'
  /** On the list of common passwords (ASVS 2.1.7): checked by the server alone (apps/server common-passwords.ts). */
  | 'common'
  /** One of the user's last four passwords: checked by the server alone (it needs the history). */
  | 'recentlyUsed';

/**
 * The password construction rules of seed 001 §5 / DESIGN §5: 12–20 characters, letters plus digits
 * or special characters, no character more than twice in a row, not the user ID. `minLength` is the
 * user's issuer's minimum (issuers.password_min_length, 12–20; LIMITS.passwordMinLength without an
 * issuer); a value below the default is never honoured. History, the common-password list and the
 * current-password check need the server's data and live there.
 */
export function checkPasswordConstruction(
  password: string,
  userId = '',
  minLength: number = LIMITS.passwordMinLength,
): PasswordProblem[] {
  if (password.length === 0) return ['required'];
  const problems: PasswordProblem[] = [];
  const length = [...password].length;
  if (length < effectiveMinLength(minLength)) problems.push('tooShort');
  if (length > LIMITS.passwordMaxLength) problems.push('tooLong');
  if (!/\p{L}/u.test(password)) problems.push('needsLetter');
  if (!/[^\p{L}\s]/u.test(password)) problems.push('needsDigitOrSpecial');
  if (/(.)\1\1/u.test(password)) problems.push('repeatedCharacters');
  if (userId && password.trim().toLowerCase() === userId.trim().toLowerCase()) problems.push('matchesUserId');
  return problems;
}

/** An issuer's minimum as the rule applies it: never below LIMITS.passwordMinLength nor above the maximum. */
export function effectiveMinLength(minLength: number): number {
  if (!Number.isInteger(minLength)) return LIMITS.passwordMinLength;
  return Math.min(Math.max(minLength, LIMITS.passwordMinLength), LIMITS.passwordMaxLength);
}

export function checkNewPassword(
  newPassword: string,
  confirmation: string,
  userId = '',
  minLength: number = LIMITS.passwordMinLength,
): PasswordProblem[] {
  const problems = checkPasswordConstruction(newPassword, userId, minLength);
  if (newPassword !== confirmation) problems.push('mismatch');
  return problems;
}
