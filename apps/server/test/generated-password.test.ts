/**
 * The passwords the system hands out (forgot-password's temporary password, an administrator's first
 * password): never common, never short of the user's issuer's minimum (issue 13 items 5 and 6).
 */

import { checkPasswordConstruction } from '@cardportal/domain';
import { describe, expect, it, vi } from 'vitest';
import * as common from '../src/security/common-passwords.ts';
import { GENERATED_PASSWORD_LENGTH, generatedPassword } from '../src/security/generated-password.ts';

// The real rules, observable: a test may make them refuse a draw as common.
vi.mock('../src/security/common-passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof common>();
  return { ...real, newPasswordProblems: vi.fn(real.newPasswordProblems) };
});

describe('generated passwords', () => {
  it('draws again when a draw is common, so a common password is never handed out', () => {
    const check = vi.mocked(common.newPasswordProblems);
    // The first three draws are refused as common: the generator must draw again until one passes.
    const refused: string[] = [];
    for (let i = 0; i < 3; i++) {
      check.mockImplementationOnce((password: string) => {
        refused.push(password);
        return ['common'];
      });
    }
    const calls = check.mock.calls.length;
    const password = generatedPassword('someuser01');
    expect(refused).toHaveLength(3);
    expect(check.mock.calls.length - calls).toBe(4);
    expect(refused).not.toContain(password);
    expect(check.mock.results.at(-1)?.value).toEqual([]);
  });

  it('meets every rule, the user\u2019s minimum length included, and is never on the list', async () => {
    const real = await vi.importActual<typeof common>('../src/security/common-passwords.ts');
    for (let i = 0; i < 300; i++) {
      const password = generatedPassword('someuser01');
      expect(password).toHaveLength(GENERATED_PASSWORD_LENGTH);
      expect(real.isCommonPassword(password)).toBe(false);
      expect(checkPasswordConstruction(password, 'someuser01')).toEqual([]);
    }
    for (const minLength of [12, 16, 20]) {
      const password = generatedPassword('someuser01', minLength);
      expect(password.length).toBe(Math.max(GENERATED_PASSWORD_LENGTH, minLength));
      expect(checkPasswordConstruction(password, 'someuser01', minLength)).toEqual([]);
    }
  });
});
