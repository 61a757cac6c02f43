import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Locale, toLanguageTag } from '@cardportal/domain';
import { describe, expect, it, vi } from 'vitest';
import { namespacesOf, textsFrom } from '../test/support.tsx';
import { loadNamespace, loadTexts, makeT } from './text.ts';

const bundles = path.resolve(import.meta.dirname, '../../../../packages/i18n/bundles');
/** A locale's texts as the server lays them (its own over en_US; plural families whole). */
function textsOf(locale: Locale) {
  const read = (name: string, of: string): Record<string, string> =>
    JSON.parse(readFileSync(path.join(bundles, of, `${name}.json`), 'utf8'));
  const own = { ...read('Messages', locale), ...read('PortalLabels', locale) };
  const tag = toLanguageTag(locale);
  return makeT(textsFrom(tag, namespacesOf(own)), tag);
}

describe('t', () => {
  it('substitutes placeholders and renders a missing key empty, never the key', () => {
    const { t, raw } = textsOf('en_US');
    expect(t('app.people.view.heading', 'card01')).toBe('User card01');
    expect(t('app.accessAs.banner', 'card01', 'admin01')).toBe(
      'You are working as card01. Signed in as admin01.',
    );
    expect(raw('app.error.noSuchCode')).toBe('');
    // Values are text, not markup: React escapes them; i18next must not do it twice.
    expect(t('app.people.view.heading', '<b>&')).toBe('User <b>&');
  });

  it('types keys from the en_US bundles: a typo does not compile', () => {
    const { t, tCount } = textsOf('en_US');
    // @ts-expect-error no such key
    expect(t('app.people.view.headng')).toBe('');
    // @ts-expect-error a count sentence is asked for with its count
    expect(t('app.people.search.count')).toBe('');
    // @ts-expect-error a plain text has no plural forms (at run time, i18next shows the plain text)
    expect(tCount('app.people.view.heading', 2)).toBe('User 2');
  });
});

describe('tCount: CLDR plural forms of each language', () => {
  it('English: one and other', () => {
    const { tCount } = textsOf('en_US');
    expect(tCount('app.accounts.cardholders.count', 1)).toBe('1 cardholder found');
    expect(tCount('app.accounts.cardholders.count', 0)).toBe('0 cardholders found');
    expect(tCount('app.accounts.cardholders.count', 1234)).toBe('1,234 cardholders found');
    expect(tCount('app.audit.count', 1, 'Oct 24, 2026', 'Nov 22, 2026')).toBe(
      '1 event from Oct 24, 2026 to Nov 22, 2026',
    );
    expect(tCount('app.org.upload.done', 1, '3')).toBe(
      'The file has been loaded: 1 org point created, 3 updated.',
    );
  });

  it('Russian: one, few, many (1, 21 / 2–4, 22 / 0, 5–20, 25)', () => {
    const { tCount } = textsOf('ru');
    expect(tCount('app.people.search.count', 1)).toBe('Найден 1 пользователь');
    expect(tCount('app.people.search.count', 21)).toBe('Найден 21 пользователь');
    expect(tCount('app.people.search.count', 3)).toBe('Найдено 3 пользователя');
    expect(tCount('app.people.search.count', 22)).toBe('Найдено 22 пользователя');
    expect(tCount('app.people.search.count', 5)).toBe('Найдено 5 пользователей');
    expect(tCount('app.people.search.count', 11)).toBe('Найдено 11 пользователей');
    expect(tCount('app.people.search.count', 0)).toBe('Найдено 0 пользователей');
    expect(tCount('app.people.search.count', 1234)).toBe('Найдено 1\u00a0234 пользователя');
  });

  it('Polish: one only for 1, few for 2–4 and 22–24, many for 5–21', () => {
    const { tCount } = textsOf('pl');
    expect(tCount('app.org.search.count', 1)).toBe('Znaleziono 1 firmę');
    expect(tCount('app.org.search.count', 2)).toBe('Znaleziono 2 firmy');
    expect(tCount('app.org.search.count', 24)).toBe('Znaleziono 24 firmy');
    expect(tCount('app.org.search.count', 5)).toBe('Znaleziono 5 firm');
    expect(tCount('app.org.search.count', 21)).toBe('Znaleziono 21 firm');
  });

  it('French: 0 and 1 are singular, millions take "de"', () => {
    const { tCount } = textsOf('fr');
    expect(tCount('app.issuers.search.count', 0)).toBe('0 émetteur trouvé');
    expect(tCount('app.issuers.search.count', 1)).toBe('1 émetteur trouvé');
    expect(tCount('app.issuers.search.count', 2)).toBe('2 émetteurs trouvés');
    expect(tCount('app.issuers.search.count', 1_000_000)).toBe("1\u202f000\u202f000 d'émetteurs trouvés");
  });

  it('Japanese: one form for every count', () => {
    const { tCount } = textsOf('ja');
    expect(tCount('app.accounts.accounts.count', 1)).toBe('1 件の口座が見つかりました');
    expect(tCount('app.accounts.accounts.count', 7)).toBe('7 件の口座が見つかりました');
  });
});

describe('namespaces load on demand', () => {
  it('starts with the shell, home and multi-user texts, and fetches a screen folder once', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        calls.push(url);
        const texts = url.endsWith('/app-people.json')
          ? {
              'app.people.search.count_one': '{0} Benutzer gefunden',
              'app.people.search.count_other': '{0} Benutzer gefunden',
            }
          : url.endsWith('/app-shell.json')
            ? { 'app.logout': 'Abmelden' }
            : {};
        return new Response(JSON.stringify(texts), { headers: { 'content-type': 'application/json' } });
      }),
    );
    const i18n = await loadTexts('de', 'de');
    expect(calls.sort()).toEqual([
      '/sdportal/portalstatic/assets/i18n/de/app-home.json',
      '/sdportal/portalstatic/assets/i18n/de/app-multi-user.json',
      '/sdportal/portalstatic/assets/i18n/de/app-shell.json',
    ]);
    const { t, tCount } = makeT(i18n, 'de');
    expect(t('app.logout')).toBe('Abmelden');
    expect(tCount('app.people.search.count', 2)).toBe('');
    expect(i18n.hasLoadedNamespace('people')).toBe(false);

    await Promise.all([loadNamespace(i18n, 'people'), loadNamespace(i18n, 'people')]);
    expect(calls.filter((url) => url.endsWith('/app-people.json'))).toHaveLength(1);
    expect(tCount('app.people.search.count', 1234)).toBe('1.234 Benutzer gefunden');
  });
});
