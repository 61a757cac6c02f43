import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalUserId,
  checkNewPassword,
  checkNewPin,
  checkNewUserId,
  checkPasswordConstruction,
  checkPin,
  cobrandSchema,
  isSafeRedirect,
  isUsableLocaleCookie,
  normaliseLocale,
  portalUrl,
  resolveLocale,
  SUPPORTED_LOCALES,
  toLanguageTag,
} from './index.ts';

describe('locale mapping (spec §5)', () => {
  it('keeps a supported locale the co-brand offers', () => {
    expect(resolveLocale('de', ['en_US', 'de'])).toBe('de');
  });
  it('falls back to the co-brand first language, else en_US', () => {
    expect(resolveLocale('ja', ['fr_CA', 'en_US'])).toBe('fr_CA');
    expect(resolveLocale('klingon', ['es'])).toBe('es');
    expect(resolveLocale(undefined, [])).toBe('en_US');
    expect(resolveLocale('<script>', [])).toBe('en_US');
  });
  it('normalises browser forms of a locale', () => {
    expect(normaliseLocale('de-DE')).toBe('de');
    expect(normaliseLocale('en-us')).toBe('en_US');
    expect(normaliseLocale('pt_BR')).toBe('pt');
    expect(normaliseLocale('id')).toBe('in');
    expect(normaliseLocale('zh-Hant')).toBe('zh_TW');
    expect(normaliseLocale('fr_CA')).toBe('fr_CA');
    expect(normaliseLocale('x'.repeat(40))).toBeUndefined();
  });
  it('always answers a supported locale, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), fc.subarray([...SUPPORTED_LOCALES]), (input, offered) => {
        const out = resolveLocale(input, offered);
        expect(SUPPORTED_LOCALES).toContain(out);
        if (offered.length > 0) expect(offered).toContain(out);
      }),
    );
  });
  it('keeps a user_locale cookie the co-brand offers, and the spec default en where en_US is offered', () => {
    expect(isUsableLocaleCookie('en', ['de', 'en_US'])).toBe(true);
    expect(isUsableLocaleCookie('en', [])).toBe(true);
    expect(isUsableLocaleCookie('en', ['de', 'en_GB'])).toBe(false);
    expect(isUsableLocaleCookie('de', ['de', 'en_US'])).toBe(true);
    expect(isUsableLocaleCookie('ja', ['de', 'en_US'])).toBe(false);
    expect(isUsableLocaleCookie('de-DE', ['de'])).toBe(false);
    expect(isUsableLocaleCookie(undefined, ['de'])).toBe(false);
  });
  it('gives html lang tags', () => {
    expect(toLanguageTag('zh_CN')).toBe('zh-CN');
    expect(toLanguageTag('in')).toBe('id');
  });
});

describe('password construction (seed 001 §5)', () => {
  it('accepts a conforming password', () => {
    expect(checkPasswordConstruction('Cardportal#2026', 'active01')).toEqual([]);
  });
  it('names every broken rule', () => {
    expect(checkPasswordConstruction('')).toEqual(['required']);
    expect(checkPasswordConstruction('Short1')).toContain('tooShort');
    expect(checkPasswordConstruction('A'.repeat(2) + 'b1'.repeat(10))).toContain('tooLong');
    expect(checkPasswordConstruction('123456789012')).toContain('needsLetter');
    expect(checkPasswordConstruction('abcdefghijkl')).toContain('needsDigitOrSpecial');
    expect(checkPasswordConstruction('Paaassword12')).toContain('repeatedCharacters');
    expect(checkPasswordConstruction('longuserid2026', 'LongUserId2026')).toContain('matchesUserId');
    expect(checkNewPassword('Cardportal#2026', 'Cardportal#2027')).toContain('mismatch');
  });
  it('never accepts a password with a character three times in a row', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 0, maxLength: 10 }),
        fc.string({ minLength: 1, maxLength: 1 }),
        fc.string({ maxLength: 10 }),
        (a, c, b) => {
          expect(checkPasswordConstruction(`${a}${c}${c}${c}${b}`)).not.toEqual([]);
        },
      ),
    );
  });
  it('accepts only lengths 12 to 20', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), (n) => {
        const pw = Array.from({ length: n }, (_, i) => (i % 2 ? 'a' : String(i % 10))).join('');
        const ok = !checkPasswordConstruction(pw).some((p) => p === 'tooShort' || p === 'tooLong');
        expect(ok).toBe(n >= 12 && n <= 20);
      }),
    );
  });
});

describe('user ID rules (seed 001 §5)', () => {
  it('accepts ordinary IDs and names the problems of bad ones (more in identity.test.ts)', () => {
    expect(checkNewUserId('active01')).toEqual([]);
    expect(checkNewUserId('')).toEqual(['userId.required']);
    expect(checkNewUserId('abc')).toContain('userId.tooShort');
    expect(checkNewUserId('has space1')).toContain('userId.spaces');
    expect(checkNewUserId('bad!chars')).toContain('userId.specialCharacters');
    expect(checkNewUserId('4111111111111111')).toContain('userId.looksLikeCardNumber');
    expect(checkNewUserId('a12345678901')).toContain('userId.tooManyDigits');
    expect(canonicalUserId('  MiXed01 ')).toBe('mixed01');
  });
});

describe('redirect safety', () => {
  const origin = 'https://cards.bank.example';
  it('accepts our own portal and application paths', () => {
    expect(isSafeRedirect('/app/', origin)).toBe(true);
    expect(isSafeRedirect(portalUrl('locked', { cobrandHost: 'x', locale: 'de' }), origin)).toBe(true);
  });
  it('refuses anything that could leave the site or run script', () => {
    for (const bad of [
      'https://evil.example/app/',
      '//evil.example/app/',
      '/\\evil.example',
      'javascript:alert(1)',
      '/etc/passwd',
      '',
      ' /app/',
      '/app/'.padEnd(3000, 'x'),
    ]) {
      expect(isSafeRedirect(bad, origin), bad).toBe(false);
    }
  });
  it('holds for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        if (isSafeRedirect(s, origin)) {
          const url = new URL(s, origin);
          expect(url.origin).toBe(origin);
        }
      }),
    );
  });
});

describe('co-brand records', () => {
  const base = {
    name: 'testbank',
    abbreviation: 'tb',
    appName: 'Cards',
    signInToLabel: 'Sign in to',
    locales: ['en_US'],
    theme: {
      primary: '#003366',
      onPrimary: '#ffffff',
      background: '#ffffff',
      text: '#111111',
      link: '#0645ad',
      footerBackground: '#eeeeee',
      footerText: '#222222',
      fontFamily: 'system-ui, sans-serif',
    },
  };
  it('accepts a valid record', () => {
    expect(cobrandSchema.parse(base).name).toBe('testbank');
  });
  it('refuses markup in text, non-https URLs and unknown locales', () => {
    expect(cobrandSchema.safeParse({ ...base, appName: '<b>Cards</b>' }).success).toBe(false);
    expect(cobrandSchema.safeParse({ ...base, fssoRedirectUrl: 'http://idp.example' }).success).toBe(false);
    expect(cobrandSchema.safeParse({ ...base, fssoRedirectUrl: 'javascript:alert(1)' }).success).toBe(false);
    expect(cobrandSchema.safeParse({ ...base, locales: ['xx'] }).success).toBe(false);
  });
  it('refuses URLs a browser would read as another host, and CSS in the font list', () => {
    for (const url of [
      '//evil.example/x',
      '/\\evil.example',
      '/\\/evil.example',
      '\\\\/evil.example',
      '/\t/evil.example',
      'https://bank.example\\@evil.example/',
      'https:evil.example',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
    ]) {
      expect(cobrandSchema.safeParse({ ...base, fssoRedirectUrl: url }).success, url).toBe(false);
      const footerLinks = [{ key: 'privacyPolicy', label: 'Privacy', url }];
      expect(cobrandSchema.safeParse({ ...base, footerLinks }).success, url).toBe(false);
    }
    for (const url of ['https://bank.example/privacy?a=b', '/sdportal/portalstatic/signin?cobrandHost=x'])
      expect(cobrandSchema.safeParse({ ...base, fssoRedirectUrl: url }).success, url).toBe(true);
    for (const fontFamily of [
      'x;background:url(https://evil.example/f)',
      'a}body{color:red',
      'expression(alert(1))',
    ])
      expect(cobrandSchema.safeParse({ ...base, theme: { ...base.theme, fontFamily } }).success).toBe(false);
    const fontFamily = '"Segoe UI", -apple-system, Arial, sans-serif';
    expect(cobrandSchema.safeParse({ ...base, theme: { ...base.theme, fontFamily } }).success).toBe(true);
  });
});

describe('PIN rules (seed 001 §5, spec §5)', () => {
  it('accepts exactly four digits without a leading zero', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (pin) => {
        const ok = checkPin(pin) === undefined;
        expect(ok).toBe(/^[1-9]\d{3}$/.test(pin));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), (n) => {
        expect(checkPin(String(n))).toBeUndefined();
      }),
    );
  });

  it('names the problem of each bad PIN and a mismatch', () => {
    expect(checkPin('')).toBe('required');
    expect(checkPin('12a4')).toBe('pinFormat');
    expect(checkPin('12345')).toBe('pinFormat');
    expect(checkPin('0123')).toBe('leadingZero');
    expect(checkNewPin('1234', '1235')).toEqual({ confirmPin: 'doNotMatch' });
    expect(checkNewPin('', '')).toEqual({ newPin: 'required', confirmPin: 'required' });
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1000, max: 9999 }), (a, b) => {
        const result = checkNewPin(String(a), String(b));
        expect(result.confirmPin === 'doNotMatch').toBe(a !== b);
      }),
    );
  });
});
