import { act } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './app/app.tsx';
import {
  BOOT_DATA_ID,
  type BootData,
  parseBootData,
  portalFromBootData,
  readBootData,
} from './app/boot-data.ts';
import { bootstrap } from './app/bootstrap.ts';
import { renderSignin, themeCss } from './entry-server.tsx';
import { browser } from './lib/browser.ts';
import { enLabels, enMessages, makeCobrand, stubFetch } from './testing/portal.tsx';

const bootData = (overrides: Partial<BootData> = {}): BootData => ({
  v: 1,
  requested: 'acme',
  cobrandName: 'acme',
  record: makeCobrand(),
  locales: { en_US: 'English (United States)', de: 'Deutsch' },
  locale: 'en_US',
  labels: enLabels,
  messages: enMessages,
  logo: '/sdportal/portalstatic/assets/images/logos/acme.png',
  footerLogo: null,
  ...overrides,
});

beforeEach(() => {
  window.history.replaceState(null, '', '/sdportal/portalstatic/signin?cobrandHost=acme&locale=en_US');
  sessionStorage.clear();
  vi.spyOn(browser, 'assign').mockImplementation(() => {});
  vi.spyOn(browser, 'reload').mockImplementation(() => {});
});
afterEach(() => {
  document.body.replaceChildren();
});

describe('server render', () => {
  it('renders the sign-in screen with its stable ids, title and logo, without a window location', () => {
    const { html, title } = renderSignin(bootData(), {
      pathname: '/sdportal/portalstatic/signin',
      search: '',
    });
    expect(title).toBe('Sign in to Acme Card');
    for (const id of ['userId', 'password', 'signin-submit', 'signin-error', 'locale-select']) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('src="/sdportal/portalstatic/assets/images/logos/acme.png"');
    // not submittable before hydration
    expect(html).toMatch(/<button id="signin-submit"[^>]*disabled=""/);
    expect(
      renderSignin(bootData(), { pathname: '/sdportal/portalstatic/', search: '?invalidLogin=true' }).html,
    ).toContain(enMessages['signin.error.invalidLogin']);
  });

  it('hydrates what it rendered without a mismatch, then enables the form; no fetch at all', async () => {
    const { calls } = stubFetch({});
    const data = bootData();
    const { html } = renderSignin(data, { pathname: '/sdportal/portalstatic/signin', search: '' });
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable = vi.fn();
    const errors = vi.spyOn(console, 'error');
    await act(async () => {
      hydrateRoot(
        container,
        <StrictMode>
          <App portal={portalFromBootData(data)} />
        </StrictMode>,
        { onRecoverableError: recoverable },
      );
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    expect((document.getElementById('signin-submit') as HTMLButtonElement).disabled).toBe(false);
    expect(calls.filter((c) => c.method === 'HEAD')).toEqual([]);
  });

  it('themes through a stylesheet with the same checks as applyTheme', () => {
    expect(themeCss({ primary: '#112233', text: 'red;}body{', fontFamily: 'Arial, sans-serif' })).toBe(
      ':root:root{--cp-primary:#112233;--cp-font-family:Arial, sans-serif}\n',
    );
    expect(themeCss(null)).toBe('');
  });
});

describe('boot data', () => {
  it('is read from the JSON element, and ignored when of another version or shape', () => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = BOOT_DATA_ID;
    script.textContent = JSON.stringify(bootData()).replace(/</g, '\\u003c');
    document.body.append(script);
    expect(readBootData()?.cobrandName).toBe('acme');
    expect(parseBootData({ ...bootData(), v: 2 })).toBeUndefined();
    expect(parseBootData({ ...bootData(), logo: '//evil.example/x.png' })).toBeUndefined();
    expect(parseBootData({ ...bootData(), locale: 'xx' })).toBeUndefined();
  });

  it('lets the bootstrap start without a single request, and applies the locale rule', async () => {
    const { calls } = stubFetch({});
    // biome-ignore lint/suspicious/noDocumentCookie: test setup
    document.cookie = 'user_locale=en_US; Path=/';
    const result = await bootstrap(true, bootData());
    expect(calls).toEqual([]);
    expect(result).toMatchObject({ kind: 'ready', fromBootData: true });
    expect(sessionStorage.getItem('COBRAND')).toBe('acme');
    expect(document.documentElement.lang).toBe('en-US');
  });

  it('is not used for another co-brand than the page asks for (it fetches then)', async () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/signin?cobrandHost=other&locale=en_US');
    const { calls } = stubFetch({});
    const result = await bootstrap(true, bootData());
    expect(calls.length).toBeGreaterThan(0);
    expect(result).toMatchObject({ kind: 'ready', fromBootData: false });
  });

  it('sends an SSO co-brand away at once from the embedded record', async () => {
    const { calls } = stubFetch({});
    const record = makeCobrand({ fssoRedirectUrl: 'https://sso.acme.example/start' });
    expect(await bootstrap(true, bootData({ record }))).toEqual({ kind: 'leaving' });
    expect(browser.assign).toHaveBeenCalledWith('https://sso.acme.example/start');
    expect(calls).toEqual([]);
  });
});
