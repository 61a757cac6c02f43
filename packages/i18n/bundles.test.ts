import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SUPPORTED_LOCALES, toLanguageTag } from '@cardportal/domain';
import { describe, expect, it } from 'vitest';

const dir = path.join(import.meta.dirname, 'bundles');
const load = (locale: string, name: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(dir, locale, `${name}.json`), 'utf8'));
const placeholders = (text: string) => (text.match(/\{\d+\}/g) ?? []).sort().join(' ');
/** i18next's plural forms (`key_one`, `key_few`, ...): a family's name, or the key itself. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const familyOf = (key: string) => key.replace(PLURAL, '');
const families = (bundle: Record<string, string>) => [...new Set(Object.keys(bundle).map(familyOf))].sort();
/** The plural forms a family has in a bundle, e.g. `few many one other`; empty for a plain key. */
const formsOf = (bundle: Record<string, string>, family: string) =>
  Object.keys(bundle)
    .filter((k) => familyOf(k) === family && k !== family)
    .map((k) => k.slice(family.length + 1))
    .sort()
    .join(' ');

describe.each(['PortalLabels', 'Messages'])('%s bundles', (name) => {
  const english = load('en_US', name);

  it.each(SUPPORTED_LOCALES.filter((l) => l !== 'en_US'))(
    '%s has exactly the en_US keys, each translated',
    (locale) => {
      const bundle = load(locale, name);
      // The same keys, but a count sentence has the plural forms of its own language.
      expect(families(bundle)).toEqual(families(english));
      for (const [key, text] of Object.entries(bundle)) {
        expect(typeof text, key).toBe('string');
        expect(text.trim().length, `${locale} ${key} is empty`).toBeGreaterThan(0);
        const source = english[key] ?? english[`${familyOf(key)}_other`] ?? '';
        expect(placeholders(text), `${locale} ${key} placeholders`).toBe(placeholders(source));
        expect(text, `${locale} ${key} has markup`).not.toMatch(/<[a-z/]/i);
      }
      if (!locale.startsWith('en_')) {
        // Not English copies: only names, codes and placeholders may stay the same.
        const same = Object.keys(english).filter(
          (k) => bundle[k] === english[k] && /[a-z]{4}/i.test(english[k] ?? ''),
        );
        for (const k of Object.keys(bundle).filter((key) => PLURAL.test(key)))
          expect(bundle[k], `${locale} ${k} is English`).not.toBe(english[`${familyOf(k)}_other`]);
        expect(
          same.length / Object.keys(english).length,
          `${locale} untranslated: ${same.slice(0, 8).join(', ')}`,
        ).toBeLessThan(0.1);
      }
    },
  );

  it.each(SUPPORTED_LOCALES)(
    '%s has exactly the plural forms its CLDR rules need for every count sentence',
    (locale) => {
      const bundle = load(locale, name);
      const needed = new Intl.PluralRules(toLanguageTag(locale)).resolvedOptions().pluralCategories;
      for (const family of families(bundle)) {
        const forms = formsOf(bundle, family);
        if (forms) expect(forms, `${locale} ${family}`).toBe([...needed].sort().join(' '));
      }
    },
  );

  it('en_US has no empty text', () => {
    for (const [key, text] of Object.entries(english)) expect(text.trim().length, key).toBeGreaterThan(0);
  });
});
