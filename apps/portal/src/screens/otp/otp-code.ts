import { LIMITS } from '@cardportal/domain';

export const OTP_LENGTH = LIMITS.otpDigits;
export const OTP_BOX_IDS: readonly string[] = Array.from({ length: OTP_LENGTH }, (_, i) => `otp-${i}`);
export const EMPTY_CODE: readonly string[] = Array.from({ length: OTP_LENGTH }, () => '');

/** Spec §5: non-digits are stripped on input. */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

export function isComplete(code: readonly string[]): boolean {
  return code.length === OTP_LENGTH && code.every((digit) => /^\d$/.test(digit));
}

/**
 * The code after box `index` received `raw` (typed, autofilled or pasted). A whole code (six digits)
 * fills every box, whichever box it went into; otherwise the digits fill the boxes from `index` on.
 * Answers the new code and the box to focus next (null: stay).
 */
export function enterDigits(
  code: readonly string[],
  index: number,
  raw: string,
): { code: string[]; focus: number | null } {
  const digits = digitsOnly(raw);
  const next = [...code];
  if (digits.length === OTP_LENGTH) {
    return { code: [...digits], focus: OTP_LENGTH - 1 };
  }
  if (digits.length === 0) {
    next[index] = '';
    return { code: next, focus: null };
  }
  let at = index;
  for (const digit of digits) {
    if (at >= OTP_LENGTH) break;
    next[at] = digit;
    at += 1;
  }
  return { code: next, focus: Math.min(at, OTP_LENGTH - 1) };
}

/**
 * What a box's input event means: its new value may hold the old digit plus the typed one (the box
 * has no maxLength, so typing over a digit and one-time-code autofill both work).
 */
export function typedInto(old: string, value: string): string {
  const digits = digitsOnly(value);
  if (digits.length <= 1 || digits.length === OTP_LENGTH) return digits;
  // one more character than before: the new digit is the one that is not the old one
  if (old && digits.length === old.length + 1) {
    return digits.startsWith(old) ? digits.slice(old.length) : digits.slice(0, 1);
  }
  return digits;
}
