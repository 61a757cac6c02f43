import { randomInt } from 'node:crypto';
import { checkPasswordConstruction } from '@cardportal/domain';

// Look-alike characters (l, o, O, 0, 1, I) are left out: people type these from a mail.
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '#%+=?!-_';

/**
 * A random password the system hands out (a temporary password from forgot-password, a new user's
 * first password): 14 characters from crypto.randomInt with a letter of each case, a digit and a
 * special character, meeting the construction rules of seed 001 §5 (and not the user ID, when given).
 */
export function generatedPassword(userId?: string): string {
  const all = LOWER + UPPER + DIGITS + SPECIAL;
  for (;;) {
    const chars = [LOWER, UPPER, DIGITS, SPECIAL].map((set) => set[randomInt(set.length)] ?? 'a');
    while (chars.length < 14) chars.push(all[randomInt(all.length)] ?? 'a');
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j] ?? 'a', chars[i] ?? 'a'];
    }
    const password = chars.join('');
    if (checkPasswordConstruction(password, userId).length === 0) return password;
  }
}
