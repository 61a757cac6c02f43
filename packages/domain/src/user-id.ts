import { LIMITS } from './limits.ts';

export type UserIdProblem =
  | 'required'
  | 'tooShort'
  | 'tooLong'
  | 'spaces'
  | 'specialCharacters'
  | 'tooManyDigits'
  | 'looksLikeCardNumber';

/** User ID rules of seed 001 §5, for creating users. Sign-in only trims and checks presence. */
export function checkNewUserId(raw: string): UserIdProblem[] {
  const problems: UserIdProblem[] = [];
  if (raw.length === 0) return ['required'];
  if (/\s/.test(raw)) problems.push('spaces');
  if (raw.length < LIMITS.userIdMinLength) problems.push('tooShort');
  if (raw.length > LIMITS.userIdMaxLength) problems.push('tooLong');
  if (!/^[A-Za-z0-9._-]*$/.test(raw.replace(/\s/g, ''))) problems.push('specialCharacters');
  const digits = raw.replace(/\D/g, '');
  if (digits.length > 10) problems.push('tooManyDigits');
  if (/^\d{12,19}$/.test(raw)) problems.push('looksLikeCardNumber');
  return problems;
}

/** Canonical form used for lookups: trimmed, case-insensitive. */
export function canonicalUserId(raw: string): string {
  return raw.trim().toLowerCase();
}
