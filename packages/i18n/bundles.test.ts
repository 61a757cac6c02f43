import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SUPPORTED_LOCALES } from '@cardportal/domain';
import { describe, expect, it } from 'vitest';

const dir = path.join(import.meta.dirname, 'bundles');
const load = (locale: string, name: string): Record<string, string> =>
  JSON.parse(readFileSync(path.join(dir, locale, `${name}.json`), 'utf8'));
const placeholders = (text: string) => (text.match(/\{\d+\}/g) ?? []).sort().join(' ');

describe.each(['PortalLabels', 'Messages'])('%s bundles', (name) => {
  const english = load('en_US', name);

  it.each(SUPPORTED_LOCALES.filter((l) => l !== 'en_US'))(
    '%s has exactly the en_US keys, each translated',
    (locale) => {
      const bundle = load(locale, name);
      expect(Object.keys(bundle).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(bundle)) {
        expect(typeof text, key).toBe('string');
        expect(text.trim().length, `${locale} ${key} is empty`).toBeGreaterThan(0);
        expect(placeholders(text), `${locale} ${key} placeholders`).toBe(placeholders(english[key] ?? ''));
        expect(text, `${locale} ${key} has markup`).not.toMatch(/<[a-z/]/i);
      }
      if (!locale.startsWith('en_')) {
        // Not English copies: only names, codes and placeholders may stay the same.
        const same = Object.keys(english).filter(
          (k) => bundle[k] === english[k] && /[a-z]{4}/i.test(english[k] ?? ''),
        );
        expect(
          same.length / Object.keys(english).length,
          `${locale} untranslated: ${same.slice(0, 8).join(', ')}`,
        ).toBeLessThan(0.1);
      }
    },
  );

  it('en_US has no empty text', () => {
    for (const [key, text] of Object.entries(english)) expect(text.trim().length, key).toBeGreaterThan(0);
  });
});
