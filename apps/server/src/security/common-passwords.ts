import {
  checkPasswordConstruction,
  DEFAULT_PASSWORD_POLICY,
  type IssuerPasswordPolicy,
  type PasswordProblem,
} from '@cardportal/domain';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The common passwords (ASVS 2.1.7): the `passwords-common` list of @zxcvbn-ts/language-common
 * (about 49,000 entries from leaked-password corpora, maintained with zxcvbn-ts; why this package:
 * docs/security.md, issue 13 item 5), lower-cased into one Set when this module loads — once per process, at start-up,
 * about 4 MB of heap (the package's array ~2.6 MB, the Set ~1.3 MB). It stays on the server: the
 * portal's bundle never carries it; the portal hears the server's `common` problem.
 */
const COMMON: ReadonlySet<string> = new Set(dictionary['passwords-common'].map((p) => fold(p)));

/** The size of the list in use (for the start-up log and tests). */
export const COMMON_PASSWORD_COUNT = COMMON.size;

/** A core shorter than this is not looked up: "abc", "sun" inside a long random password are no weakness. */
const MIN_CORE_LENGTH = 4;

function fold(value: string): string {
  return value.normalize('NFKC').toLowerCase();
}

/**
 * The forms of a password looked up in the list (docs/security.md, "Common passwords"): the whole
 * password, then the decorations the 12–20 rule pushes onto a common password peeled off one layer at a
 * time, always case-folded (NFKC, lower case):
 * 1. the whole password;
 * 2. without leading and trailing symbols and spaces (`!Qwerty123456!` → `qwerty123456`);
 * 3. then without everything after its last letter — trailing digits and symbols (`Password123!` → `password`);
 * 4. then without everything before its first letter — leading digits and symbols (`2024Sunshine!!` → `sunshine`).
 * Forms 2–4 are looked up only when at least 4 characters long. Nothing inside the password is removed
 * or rewritten: a passphrase (`correct horse battery`), or a word with more words or symbols inside
 * (`MyDog$Rex2024`), is not refused.
 */
export function commonPasswordForms(password: string): string[] {
  const whole = fold(password);
  const trimmed = whole.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  const noTail = trimmed.replace(/[^\p{L}]+$/u, '');
  const core = noTail.replace(/^[^\p{L}]+/u, '');
  const forms = [whole];
  for (const form of [trimmed, noTail, core]) {
    if ([...form].length >= MIN_CORE_LENGTH && !forms.includes(form)) forms.push(form);
  }
  return forms;
}

/** Whether the password is, or is a trivially decorated, common password. */
export function isCommonPassword(password: string): boolean {
  return commonPasswordForms(password).some((form) => COMMON.has(form));
}

/**
 * Every rule a new password must meet, in one place for every path that sets one (change and forced
 * change, forgot-password's temporary password, an administrator's first password, the CLI): the
 * shared construction rule of packages/domain with the user's issuer's minimum length, and the
 * common-password list. History (the last four) needs the user's rows: PasswordService adds it.
 */
export function newPasswordProblems(
  password: string,
  userId: string,
  policy: Pick<IssuerPasswordPolicy, 'passwordMinLength'> = DEFAULT_PASSWORD_POLICY,
): PasswordProblem[] {
  const problems = checkPasswordConstruction(password, userId, policy.passwordMinLength);
  if (password.length > 0 && isCommonPassword(password)) problems.push('common');
  return problems;
}
