import { SUPPORTED_LOCALES, toLanguageTag } from '@cardportal/domain';
import { describe, expect, it } from 'vitest';
import { ARIA_LANGUAGES } from './aria-locales.ts';

describe('react-aria strings kept by the build', () => {
  it('cover the language of every supported locale, and English as the fallback', () => {
    const languages = new Set(SUPPORTED_LOCALES.map((l) => new Intl.Locale(toLanguageTag(l)).language));
    expect([...languages].filter((l) => !(ARIA_LANGUAGES as readonly string[]).includes(l))).toEqual([]);
    expect(ARIA_LANGUAGES).toContain('en');
  });
});
