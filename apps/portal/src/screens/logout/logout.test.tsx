import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser.ts';
import { json, makeCobrand, makePortal, renderWithPortal, stubFetch, text } from '../../testing/portal.tsx';
import LogoutScreen from './logout-screen.tsx';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

const LABELS = 'GET /sdportal/rest/logoutrest/logoutLabelsAndReturnLink';
const EXTERNAL = 'GET /sdportal/rest/logoutrest/externalLogoutUrl';

let assign: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => setCookie('ssoUserCookie=; Max-Age=0; Path=/'));

describe('LogoutScreen', () => {
  it('loads the labels, follows the same-origin external logout URL, then shows the page', async () => {
    const { calls } = stubFetch({
      [LABELS]: json({
        'ng.you.have.been.logged.out': 'Server says logged out',
        'ng.return.to.login.screen': 'Back to sign in',
        cobrandHostInfo: 'acme',
        fssoLogoutUrl: null,
      }),
      [EXTERNAL]: text('/heracles/logout'),
      'GET /heracles/logout': text('/sdportal/portalstatic/logout'),
    });
    renderWithPortal(<LogoutScreen />);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('Server says logged out');
    expect(calls.map((c) => c.url)).toEqual([
      '/sdportal/rest/logoutrest/logoutLabelsAndReturnLink?cobrandHost=acme&locale=en_US',
      '/sdportal/rest/logoutrest/externalLogoutUrl',
      '/heracles/logout',
    ]);
    const button = screen.getByRole('button', { name: 'Back to sign in' });
    expect(button.id).toBe('return-to-login');
    button.click();
    expect(assign).toHaveBeenCalledWith('/sdportal/portalstatic/signin?cobrandHost=acme&locale=en_US');
    expect(document.title).toBe('Logged out | Acme Card');
  });

  it('uses the bundle texts when the labels call fails, and never follows a foreign URL', async () => {
    const { calls } = stubFetch({ [EXTERNAL]: text('https://evil.example/logout') });
    renderWithPortal(<LogoutScreen />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('You have been logged out');
    expect(screen.getByRole('button', { name: 'Return to sign in' })).toBeTruthy();
    expect(calls.some((c) => c.url.includes('evil'))).toBe(false);
  });

  it('hides the button for SSO users without a federated logout URL', async () => {
    setCookie('ssoUserCookie=true; Path=/');
    stubFetch({ [EXTERNAL]: text('/heracles/logout') });
    renderWithPortal(<LogoutScreen />);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('sends SSO users to the https federated logout URL', async () => {
    setCookie('ssoUserCookie=true; Path=/');
    stubFetch({ [LABELS]: json({ fssoLogoutUrl: 'https://idp.bank.example/logout' }) });
    renderWithPortal(<LogoutScreen />, makePortal({ cobrand: makeCobrand() }));
    const button = await screen.findByRole('button', { name: 'Return to sign in' });
    button.click();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.bank.example/logout'));
  });

  it('shows a message another screen left in logoutMessage once, then removes it', async () => {
    sessionStorage.setItem('logoutMessage', 'newPin.error.serverDown');
    stubFetch({ [EXTERNAL]: text('/heracles/logout'), 'GET /heracles/logout': text('/x') });
    renderWithPortal(<LogoutScreen />);
    await screen.findByRole('heading', { level: 1 });
    expect(document.getElementById('logout-message')?.textContent).toBe(
      'The application server is down. Your PIN was not changed. Please try again later.',
    );
    expect(sessionStorage.getItem('logoutMessage')).toBeNull();
  });

  it('ignores a logoutMessage that is not one of ours', async () => {
    sessionStorage.setItem('logoutMessage', '<b>anything</b>');
    stubFetch({ [EXTERNAL]: text('/heracles/logout'), 'GET /heracles/logout': text('/x') });
    renderWithPortal(<LogoutScreen />);
    await screen.findByRole('heading', { level: 1 });
    expect(document.getElementById('logout-message')).toBeNull();
    expect(sessionStorage.getItem('logoutMessage')).toBeNull();
  });
});
