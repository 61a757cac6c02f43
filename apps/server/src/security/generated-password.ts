import { randomInt } from 'node:crypto';
import { effectiveMinLength, LIMITS } from '@cardportal/domain';
import { newPasswordProblems } from './common-passwords.ts';

// Look-alike characters (l, o, O, 0, 1, I) are left out: people type these from a mail.
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '#%+=?!-_';

/** Characters of a generated password, or the user's minimum length when that is higher (up to 20). */
export const GENERATED_PASSWORD_LENGTH = 14;

/**
 * A random password the system hands out (a temporary password from forgot-password, a new user's
 * first password): 14 characters (more when the user's issuer asks for more) from crypto.randomInt
 * with a letter of each case, a digit and a special character. A draw that breaks any rule a new
 * password must meet (newPasswordProblems: seed 001 §5's construction with the user's minimum, not the
 * user ID when given, not a common password) is thrown away and drawn again, so none ever is.
 * `problems` is that rule; a test hands in one that refuses some draws, to see them drawn again.
 */
export function generatedPassword(
  userId = '',
  minLength: number = LIMITS.passwordMinLength,
  problems: typeof newPasswordProblems = newPasswordProblems,
): string {
  const all = LOWER + UPPER + DIGITS + SPECIAL;
  const length = Math.max(GENERATED_PASSWORD_LENGTH, effectiveMinLength(minLength));
  const policy = { passwordMinLength: length };
  for (;;) {
    const chars = [LOWER, UPPER, DIGITS, SPECIAL].map((set) => set[randomInt(set.length)] ?? 'a');
    while (chars.length < length) chars.push(all[randomInt(all.length)] ?? 'a');
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j] ?? 'a', chars[i] ?? 'a'];
    }
    const password = chars.join('');
    if (problems(password, userId, policy).length === 0) return password;
  }
}
