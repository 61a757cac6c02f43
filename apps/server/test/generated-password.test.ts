/**
 * The passwords the system hands out (forgot-password's temporary password, an administrator's first
 * password): never common, never short of the user's issuer's minimum (issue 13 items 5 and 6).
 */

import { checkPasswordConstruction } from '@cardportal/domain';
import { describe, expect, it, vi } from 'vitest';
import { isCommonPassword, newPasswordProblems } from '../src/security/common-passwords.ts';
import { GENERATED_PASSWORD_LENGTH, generatedPassword } from '../src/security/generated-password.ts';

describe('generated passwords', () => {
  it('draws again when a draw is common, so a common password is never handed out', () => {
    // The real rules, observable, handed to the generator.
    const check = vi.fn(newPasswordProblems);
    // The first three draws are refused as common: the generator must draw again until one passes.
    const refused: string[] = [];
    for (let i = 0; i < 3; i++) {
      check.mockImplementationOnce((password: string) => {
        refused.push(password);
        return ['common'];
      });
    }
    const password = generatedPassword('someuser01', undefined, check);
    expect(refused).toHaveLength(3);
    expect(check.mock.calls).toHaveLength(4);
    expect(refused).not.toContain(password);
    expect(check.mock.results.at(-1)?.value).toEqual([]);
  });

  it('meets every rule, the user\u2019s minimum length included, and is never on the list', () => {
    for (let i = 0; i < 300; i++) {
      const password = generatedPassword('someuser01');
      expect(password).toHaveLength(GENERATED_PASSWORD_LENGTH);
      expect(isCommonPassword(password)).toBe(false);
      expect(checkPasswordConstruction(password, 'someuser01')).toEqual([]);
    }
    for (const minLength of [12, 16, 20]) {
      const password = generatedPassword('someuser01', minLength);
      expect(password.length).toBe(Math.max(GENERATED_PASSWORD_LENGTH, minLength));
      expect(checkPasswordConstruction(password, 'someuser01', minLength)).toEqual([]);
    }
  });
});
