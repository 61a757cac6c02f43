import { LIMITS } from './limits.ts';

/** Message keys of the user ID rules; screens show `validation.{key}` from the Messages bundle. */
export type UserIdProblem =
  | 'userId.required'
  | 'userId.tooShort'
  | 'userId.tooLong'
  | 'userId.spaces'
  | 'userId.specialCharacters'
  | 'userId.tooManyDigits'
  | 'userId.looksLikeCardNumber';

/** Characters that may separate digit groups of a card number as people type them. */
const SEPARATORS = /[\s.\-_/]/g;

/**
 * Whether text holds something that looks like a card number: a run of 12 or more digits once
 * separators (spaces, dots, dashes, underscores, slashes) are ignored. Deliberately not Luhn-gated: a
 * mistyped card number is still a card number and must not become a user ID (docs/authorization.md).
 */
export function looksLikeCardNumber(text: string): boolean {
  return new RegExp(`\\d{${LIMITS.cardNumberMinDigits},}`).test(text.replace(SEPARATORS, ''));
}

/** Luhn (mod 10) check of a digit string. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * User ID rules of seed 001 §5, for creating users: required, no spaces, 6 to 20 characters, letters
 * and digits only (no special characters), at most 10 digits, nothing that looks like a card number.
 * Sign-in only trims and checks presence and the 64-character input bound.
 */
export function checkNewUserId(raw: string): UserIdProblem[] {
  if (raw.length === 0) return ['userId.required'];
  const problems: UserIdProblem[] = [];
  if (/\s/.test(raw)) problems.push('userId.spaces');
  if (raw.length < LIMITS.userIdMinLength) problems.push('userId.tooShort');
  if (raw.length > LIMITS.newUserIdMaxLength) problems.push('userId.tooLong');
  if (!/^[A-Za-z0-9]*$/.test(raw.replace(/\s/g, ''))) problems.push('userId.specialCharacters');
  if (raw.replace(/\D/g, '').length > LIMITS.userIdMaxDigits) problems.push('userId.tooManyDigits');
  if (looksLikeCardNumber(raw)) problems.push('userId.looksLikeCardNumber');
  return problems;
}

/** Canonical form used for lookups: trimmed, case-insensitive. */
export function canonicalUserId(raw: string): string {
  return raw.trim().toLowerCase();
}
