import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEmail, checkEmailPair, checkSecurityAnswer } from './identity.ts';
import { LIMITS } from './limits.ts';
import { checkPageJump, checkSearchCriteria, isResultTooLarge, pageCount } from './search.ts';
import { checkNewUserId, isLuhnValid, looksLikeCardNumber } from './user-id.ts';

const KEY = /^[a-zA-Z]+\.[a-zA-Z]+$/;

describe('user ID (seed 001 §5)', () => {
  it('takes letters and digits, 6 to 20 characters', () => {
    expect(checkNewUserId('jdoe26')).toEqual([]);
    expect(checkNewUserId('JohnDoe2026')).toEqual([]);
    expect(checkNewUserId('a'.repeat(LIMITS.newUserIdMaxLength))).toEqual([]);
    expect(checkNewUserId('a'.repeat(LIMITS.newUserIdMaxLength + 1))).toEqual(['userId.tooLong']);
    expect(checkNewUserId('abcde')).toEqual(['userId.tooShort']);
  });
  it('refuses spaces anywhere, special characters and non-ASCII letters', () => {
    expect(checkNewUserId(' jdoe2026')).toContain('userId.spaces');
    expect(checkNewUserId('jdoe\t2026')).toContain('userId.spaces');
    for (const bad of ['j.doe2026', 'j-doe2026', 'j_doe2026', 'jdoe@2026', 'jdöe2026', "o'brien1"]) {
      expect(checkNewUserId(bad), bad).toEqual(['userId.specialCharacters']);
    }
  });
  it('allows 10 digits at most', () => {
    expect(checkNewUserId('ab1234567890')).toEqual([]);
    expect(checkNewUserId('a1b2c3d4e5f6g7h8i9j0')).toEqual([]);
    expect(checkNewUserId('1a2b3c4d5e6f7g8h9i0j1')).toContain('userId.tooManyDigits');
  });
  it('refuses anything that looks like a card number, with or without separators', () => {
    expect(checkNewUserId('5424180000000005')).toContain('userId.looksLikeCardNumber');
    expect(checkNewUserId('541234567890')).toContain('userId.looksLikeCardNumber');
    expect(looksLikeCardNumber('5424 1800 0000 0005')).toBe(true);
    expect(looksLikeCardNumber('5424-1800-0000-0005')).toBe(true);
    expect(looksLikeCardNumber('x12345678901y')).toBe(false);
    expect(looksLikeCardNumber('id 12345678901 2')).toBe(true);
  });
  it('never accepts a run of 12 to 19 digits', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcXYZ'), maxLength: 4 }),
        fc.stringMatching(/^\d{12,19}$/),
        fc.string({ unit: fc.constantFrom(...'abcXYZ'), maxLength: 4 }),
        (before, digits, after) => {
          const problems = checkNewUserId(`${before}${digits}${after}`);
          expect(problems).toContain('userId.looksLikeCardNumber');
        },
      ),
    );
  });
  it('answers only message keys, and an accepted ID obeys every rule', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (id) => {
        const problems = checkNewUserId(id);
        for (const p of problems) expect(p).toMatch(KEY);
        if (problems.length === 0) {
          expect(id).toMatch(/^[A-Za-z0-9]{6,20}$/);
          expect(id.replace(/\D/g, '').length).toBeLessThanOrEqual(10);
        }
      }),
    );
  });
  it('checks Luhn', () => {
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(isLuhnValid('4111111111111112')).toBe(false);
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('')).toBe(false);
    expect(isLuhnValid('12a4')).toBe(false);
  });
});

describe('e-mail (seed 001 §5)', () => {
  it('checks the format and length under 60', () => {
    expect(checkEmail('ada.active@example.com')).toBeUndefined();
    expect(checkEmail('')).toBe('email.required');
    for (const bad of [
      'ada',
      'ada@',
      '@example.com',
      'ada@example',
      'a b@example.com',
      'a@b..com',
      'Ada <a@b.com>',
    ]) {
      expect(checkEmail(bad), bad).toBe('email.format');
    }
    const local = 'a'.repeat(LIMITS.emailMaxLength - '@example.com'.length);
    expect(checkEmail(`${local}@example.com`)).toBeUndefined();
    expect(checkEmail(`${local}a@example.com`)).toBe('email.tooLong');
  });
  it('needs a matching confirmation', () => {
    expect(checkEmailPair('a@example.com', 'A@Example.com')).toEqual({});
    expect(checkEmailPair('a@example.com', '')).toEqual({ emailConfirm: 'emailConfirm.required' });
    expect(checkEmailPair('a@example.com', 'b@example.com')).toEqual({
      emailConfirm: 'emailConfirm.mismatch',
    });
    expect(checkEmailPair('bad', 'bad')).toEqual({ email: 'email.format' });
  });
  it('never accepts 60 characters or more', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const problem = checkEmail(email);
        if (email.length >= 60) expect(problem).toBe('email.tooLong');
        if (problem === undefined) expect(email.length).toBeLessThan(60);
      }),
    );
  });
});

describe('security answer (seed 001 §5)', () => {
  it('needs 6 characters (the reset answer rule, issue 13 item 6) and no spaces', () => {
    expect(checkSecurityAnswer('Springfield')).toEqual([]);
    expect(checkSecurityAnswer('Madrid')).toEqual([]);
    expect(checkSecurityAnswer('Paris')).toEqual(['securityAnswer.tooShort']);
    expect(checkSecurityAnswer('Rome')).toEqual(['securityAnswer.tooShort']);
    expect(checkSecurityAnswer('')).toEqual(['securityAnswer.required']);
    expect(checkSecurityAnswer('abc')).toEqual(['securityAnswer.tooShort']);
    expect(checkSecurityAnswer('New York')).toEqual(['securityAnswer.spaces']);
    expect(checkSecurityAnswer('a b')).toEqual(['securityAnswer.spaces', 'securityAnswer.tooShort']);
    expect(checkSecurityAnswer('x'.repeat(101))).toEqual(['securityAnswer.tooLong']);
  });
  it('counts characters, not UTF-16 units', () => {
    expect(checkSecurityAnswer('😀😀😀😀😀😀')).toEqual([]);
    expect(checkSecurityAnswer('😀😀😀')).toEqual(['securityAnswer.tooShort']);
  });
});

describe('search and paging (seed 001 §5)', () => {
  it('needs search criteria of at least 2 characters', () => {
    expect(checkSearchCriteria('')).toBe('search.required');
    expect(checkSearchCriteria('   ')).toBe('search.required');
    expect(checkSearchCriteria(' a ')).toBe('search.tooShort');
    expect(checkSearchCriteria('ab')).toBeUndefined();
    expect(checkSearchCriteria('a'.repeat(101))).toBe('search.tooLong');
  });
  it('counts pages and flags a result set that is too large', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(25)).toBe(1);
    expect(pageCount(26)).toBe(2);
    expect(pageCount(10, 3)).toBe(4);
    expect(isResultTooLarge(LIMITS.searchMaxResults)).toBe(false);
    expect(isResultTooLarge(LIMITS.searchMaxResults + 1)).toBe(true);
  });
  it('takes a page jump from 1 to the page count', () => {
    expect(checkPageJump('3', 5)).toEqual({ page: 3 });
    expect(checkPageJump(5, 5)).toEqual({ page: 5 });
    expect(checkPageJump(' 1 ', 1)).toEqual({ page: 1 });
    expect(checkPageJump('', 5)).toEqual({ problem: 'pageJump.required' });
    for (const bad of ['1.5', '-1', 'two', '1e2', '0x2']) {
      expect(checkPageJump(bad, 5), bad).toEqual({ problem: 'pageJump.notWholeNumber' });
    }
    expect(checkPageJump('0', 5)).toEqual({ problem: 'pageJump.outOfRange' });
    expect(checkPageJump('6', 5)).toEqual({ problem: 'pageJump.outOfRange' });
  });
  it('accepts exactly the whole numbers 1..pages', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 60 }), fc.integer({ min: 1, max: 50 }), (n, pages) => {
        const result = checkPageJump(String(n), pages);
        if (n >= 1 && n <= pages) expect(result).toEqual({ page: n });
        else expect(result.problem).toBeDefined();
      }),
    );
  });
});
