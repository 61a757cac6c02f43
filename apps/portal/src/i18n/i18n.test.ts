import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTranslate, format, loadTranslate, nameOr } from './i18n.ts';

describe('format', () => {
  it('substitutes numbered placeholders, in any order and repeated', () => {
    expect(format('{1} then {0} and {1}', ['a', 2])).toBe('2 then a and 2');
  });
  it('leaves placeholders without an argument untouched', () => {
    expect(format('{0} of {1}', ['x'])).toBe('x of {1}');
  });
  it('returns the template as is without arguments', () => {
    expect(format('100% {0}', [])).toBe('100% {0}');
  });
  it('does not interpret $ patterns in arguments', () => {
    expect(format('{0}', ["$& $' $1"])).toBe("$& $' $1");
  });
});

describe('createTranslate', () => {
  const t = createTranslate(
    { 'signin.submit': 'Sign in', 'common.pageTitle': '{0} | {1}' },
    { 'validation.requiredField': 'Required field' },
  );
  it('looks keys up in labels then messages', () => {
    expect(t('signin.submit')).toBe('Sign in');
    expect(t('validation.requiredField')).toBe('Required field');
  });
  it('substitutes arguments', () => {
    expect(t('common.pageTitle', 'Logged out', 'Card Portal')).toBe('Logged out | Card Portal');
  });
  it('returns an empty string for a missing key', () => {
    expect(t('logout.title')).toBe('');
    expect(nameOr(t('logout.title'), 'logout.title')).toBe('logout.title');
    expect(nameOr(t('signin.submit'), 'signin.submit')).toBeUndefined();
  });
});

describe('loadTranslate', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fetches both bundles of the locale', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      Response.json(url.endsWith('PortalLabels.json') ? { 'signin.submit': 'Anmelden' } : {}),
    );
    vi.stubGlobal('fetch', fetchMock);
    const t = await loadTranslate('de');
    expect(t('signin.submit')).toBe('Anmelden');
    expect(fetchMock.mock.calls.map((c) => c[0]).sort()).toEqual([
      '/sdportal/portalstatic/assets/i18n/de/Messages.json',
      '/sdportal/portalstatic/assets/i18n/de/PortalLabels.json',
    ]);
  });

  it('falls back to en_US, then to an empty bundle, when fetches fail', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.includes('/en_US/PortalLabels')
          ? Response.json({ 'signin.submit': 'Sign in' })
          : new Response('{}', { status: 404 }),
      ),
    );
    const t = await loadTranslate('de');
    expect(t('signin.submit')).toBe('Sign in');
    expect(t('validation.requiredField')).toBe('');
  });

  it('ignores non-string values', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ 'signin.submit': 42 })),
    );
    const t = await loadTranslate('en_US');
    expect(t('signin.submit')).toBe('');
  });
});
