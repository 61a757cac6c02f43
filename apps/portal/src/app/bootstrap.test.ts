import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../lib/browser.ts';
import { json, makeCobrand, stubFetch } from '../testing/portal.tsx';
import { bootstrap, chooseCobrandName, fssoRedirectTarget, loadCobrand, selectLocale } from './bootstrap.ts';

function clearCookies() {
  for (const name of ['user_locale', 'sec-token']) {
    // biome-ignore lint/suspicious/noDocumentCookie: test setup
    document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}
function setLocaleCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = `user_locale=${value}; Path=/`;
}
const localeCookie = () => /(?:^|; )user_locale=([^;]*)/.exec(document.cookie)?.[1];

beforeEach(() => {
  sessionStorage.clear();
  clearCookies();
});
afterEach(() => clearCookies());

describe('chooseCobrandName', () => {
  it('prefers the query, then session storage, then the default', () => {
    sessionStorage.setItem('COBRAND', 'stored');
    expect(chooseCobrandName(new URLSearchParams('cobrandHost=Acme'))).toBe('acme');
    expect(chooseCobrandName(new URLSearchParams())).toBe('stored');
    sessionStorage.clear();
    expect(chooseCobrandName(new URLSearchParams())).toBe('cardportal');
  });

  it('ignores names that are not co-brand names', () => {
    sessionStorage.setItem('COBRAND', '../etc');
    expect(chooseCobrandName(new URLSearchParams('cobrandHost=a/b'))).toBe('cardportal');
  });
});

describe('loadCobrand', () => {
  it('loads record and locales, and caches both', async () => {
    const { calls } = stubFetch({
      'GET /sdportal/rest/cobrand/acme': json(makeCobrand()),
      'GET /sdportal/rest/cobrands/acme/locales': json({ en_US: 'English', de: 'Deutsch' }),
    });
    const first = await loadCobrand('acme');
    expect(first.name).toBe('acme');
    expect(first.locales).toEqual({ en_US: 'English', de: 'Deutsch' });
    await loadCobrand('acme');
    expect(calls).toHaveLength(2);
  });

  it('falls back to the default co-brand on 404', async () => {
    stubFetch({
      'GET /sdportal/rest/cobrand/cardportal': json(makeCobrand({ name: 'cardportal' })),
      'GET /sdportal/rest/cobrands/cardportal/locales': json({ en_US: 'English' }),
      'PUT /sdportal/rest/log/logErrorStatement.json': new Response(null, { status: 204 }),
    });
    const loaded = await loadCobrand('unknown-bank');
    expect(loaded.name).toBe('cardportal');
    expect(loaded.record?.name).toBe('cardportal');
  });

  it('resolves an abbreviation through cobrandhostabbreviation', async () => {
    const { calls } = stubFetch({
      'GET /sdportal/rest/cobrandhostabbreviation': new Response('acme', { status: 200 }),
      'GET /sdportal/rest/cobrand/acme': json(makeCobrand()),
      'GET /sdportal/rest/cobrands/acme/locales': json({ en_US: 'English' }),
    });
    expect((await loadCobrand('acm')).name).toBe('acme');
    expect(calls.some((c) => c.url.endsWith('cobrandhostabbreviation?cobrandAbbr=acm'))).toBe(true);
  });

  it('runs without a record when nothing can be loaded', async () => {
    stubFetch({});
    expect(await loadCobrand('cardportal')).toEqual({ name: 'cardportal', record: null, locales: {} });
  });
});

describe('selectLocale (spec §4/§5)', () => {
  const locales = { de: 'Deutsch', en_US: 'English' };

  it('takes the locale query before the cookie and keeps a usable cookie', () => {
    setLocaleCookie('en_US');
    expect(selectLocale(new URLSearchParams('locale=de-DE'), 'acme', locales, true)).toEqual({
      locale: 'de',
      reload: false,
    });
    expect(localeCookie()).toBe('en_US');
  });

  it('sets a missing cookie to the co-brand first language and reloads once', () => {
    expect(selectLocale(new URLSearchParams(), 'acme', locales, true)).toEqual({
      locale: 'de',
      reload: true,
    });
    expect(localeCookie()).toBe('de');
    clearCookies();
    expect(selectLocale(new URLSearchParams(), 'acme', locales, true)).toEqual({
      locale: 'de',
      reload: false,
    });
  });

  it("accepts the spec's default cookie value en as it is: en_US, no rewrite, no reload (issue 22)", () => {
    setLocaleCookie('en');
    expect(selectLocale(new URLSearchParams(), 'acme', locales, true)).toEqual({
      locale: 'en_US',
      reload: false,
    });
    expect(localeCookie()).toBe('en');
  });

  it('replaces a cookie the co-brand does not offer', () => {
    setLocaleCookie('ja');
    expect(selectLocale(new URLSearchParams(), 'acme', locales, true)).toEqual({
      locale: 'de',
      reload: true,
    });
    expect(localeCookie()).toBe('de');
  });

  it('only reloads the sign-in screen', () => {
    expect(selectLocale(new URLSearchParams(), 'acme', locales, false)).toEqual({
      locale: 'de',
      reload: false,
    });
    expect(localeCookie()).toBeFalsy();
  });

  it('falls back to en_US without a locale list', () => {
    expect(selectLocale(new URLSearchParams('locale=xx'), 'acme', {}, false).locale).toBe('en_US');
  });
});

describe('fssoRedirectTarget', () => {
  it('accepts https URLs and our own paths only', () => {
    expect(fssoRedirectTarget(makeCobrand({ fssoRedirectUrl: 'https://idp.bank.example/sso' }))).toBe(
      'https://idp.bank.example/sso',
    );
    expect(fssoRedirectTarget(makeCobrand({ fssoRedirectUrl: 'http://idp.bank.example/' }))).toBeUndefined();
    expect(fssoRedirectTarget(makeCobrand({ fssoRedirectUrl: '//evil.example' }))).toBeUndefined();
    expect(fssoRedirectTarget(null)).toBeUndefined();
  });
});

describe('bootstrap', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/signin?cobrandHost=acme');
    document.documentElement.removeAttribute('style');
  });

  it('stores the co-brand, applies the theme and lang, and loads the bundles', async () => {
    setLocaleCookie('de');
    stubFetch({
      'GET /sdportal/rest/cobrand/acme': json(makeCobrand()),
      'GET /sdportal/rest/cobrands/acme/locales': json({ en_US: 'English', de: 'Deutsch' }),
      'GET /sdportal/portalstatic/assets/i18n/de/PortalLabels.json': json({ 'signin.submit': 'Anmelden' }),
      'GET /sdportal/portalstatic/assets/i18n/de/Messages.json': json({}),
    });
    const result = await bootstrap(true);
    if (result.kind !== 'ready') throw new Error('expected ready');
    expect(result.portal.locale).toBe('de');
    expect(result.portal.t('signin.submit')).toBe('Anmelden');
    expect(sessionStorage.getItem('COBRAND')).toBe('acme');
    expect(document.documentElement.lang).toBe('de');
    expect(document.documentElement.style.getPropertyValue('--cp-primary')).toBe('#112233');
  });

  it('redirects a federated-SSO co-brand at once', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    stubFetch({
      'GET /sdportal/rest/cobrand/acme': json(
        makeCobrand({ fssoRedirectUrl: 'https://idp.bank.example/sso' }),
      ),
      'GET /sdportal/rest/cobrands/acme/locales': json({ en_US: 'English' }),
    });
    expect(await bootstrap(true)).toEqual({ kind: 'leaving' });
    expect(assign).toHaveBeenCalledWith('https://idp.bank.example/sso');
  });

  it('reloads once when the locale cookie is missing', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    stubFetch({
      'GET /sdportal/rest/cobrand/acme': json(makeCobrand()),
      'GET /sdportal/rest/cobrands/acme/locales': json({ en_US: 'English' }),
    });
    expect(await bootstrap(true)).toEqual({ kind: 'leaving' });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(localeCookie()).toBe('en_US');
  });
});
