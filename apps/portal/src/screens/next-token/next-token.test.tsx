import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser.ts';
import { json, renderWithPortal, stubFetch, text } from '../../testing/portal.tsx';
import { gatewayErrorOf } from './next-token-flow.ts';
import NextTokenScreen from './next-token-screen.tsx';

const INFO = 'GET /sdportal/rest/rsapin/information';
const LOGIN = 'POST /heracles/login';
const LOGOUT = 'GET /heracles/logout';
const LOGOUT_URL = '/sdportal/portalstatic/logout?cobrandHost=acme&locale=en_US';
const PAGE = '/sdportal/portalstatic/next-token?cobrandHost=acme&locale=en_US';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

const base = {
  [INFO]: json({ shouldAccess: true, forwardFormEndpoint: '/heracles/login', ldapId: 'l', b2BAlias: 'a' }),
  [LOGOUT]: text(LOGOUT_URL),
};

const input = () => document.getElementById('nextToken') as HTMLInputElement;
const describedText = () =>
  document.getElementById(input().getAttribute('aria-describedby') ?? '')?.textContent ?? '';
const INVALID = 'Invalid token: enter the 8-digit code shown on your token.';

let assign: ReturnType<typeof vi.spyOn>;

async function open(query = '?cobrandHost=acme&locale=en_US') {
  window.history.replaceState(null, '', `/sdportal/portalstatic/next-token${query}`);
  renderWithPortal(<NextTokenScreen />);
  await waitFor(() => expect(input()).toBeTruthy());
}

beforeEach(() => {
  sessionStorage.clear();
  sessionStorage.setItem('userId', 'token01');
  setCookie('sec-token=tok123; Path=/');
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('gatewayErrorOf', () => {
  it('finds ec= in an answered URL', () => {
    expect(gatewayErrorOf(`${PAGE}&ec=14008`)).toBe('14008');
    expect(gatewayErrorOf('%2Fsdportal%2Fportalstatic%2Fnext-token%3Fec%3D14008')).toBe('14008');
    expect(gatewayErrorOf('/app/')).toBeNull();
    expect(gatewayErrorOf('/app/?spec=1')).toBeNull();
  });
});

describe('NextTokenScreen', () => {
  it('logs out when the server says shouldAccess false, or the call fails', async () => {
    const { calls } = stubFetch({ ...base, [INFO]: json({ shouldAccess: false }) });
    window.history.replaceState(null, '', PAGE);
    renderWithPortal(<NextTokenScreen />);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
    expect(calls[0]?.url).toBe('/sdportal/rest/rsapin/information?action=nexttoken');
  });

  it('logs out when the forward endpoint is not a path of ours', async () => {
    stubFetch({
      ...base,
      [INFO]: json({ shouldAccess: true, forwardFormEndpoint: 'https://evil.example/x' }),
    });
    window.history.replaceState(null, '', PAGE);
    renderWithPortal(<NextTokenScreen />);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
  });

  it('requires exactly eight digits ("invalid token") before any call', async () => {
    const { calls } = stubFetch(base);
    await open();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByLabelText('Next token code').id).toBe('nextToken');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(describedText()).toBe(INVALID);
    expect(document.activeElement).toBe(input());
    fireEvent.change(input(), { target: { value: '1234567' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(describedText()).toBe(INVALID);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('posts the token with the page-query fields and follows a clean answer', async () => {
    const { calls } = stubFetch({ ...base, [LOGIN]: text('/app/') });
    await open('?cobrandHost=acme&referral_path=%2Fapp%2F&authn_attempt_id=a1&in_response_to=r9');
    fireEvent.change(input(), { target: { value: '87654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/app/'));
    const login = calls.find((c) => c.url === '/heracles/login');
    expect(Object.fromEntries(new URLSearchParams(login?.body ?? ''))).toEqual({
      username: 'token01',
      password: '87654321',
      'login-form-type': 'next-token',
      referral_path: '/app/',
      authn_attempt_id: 'a1',
      in_response_to: 'r9',
    });
    expect(login?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
  });

  it('stays and marks the field invalid when the answer carries ec=14008', async () => {
    stubFetch({ ...base, [LOGIN]: text(`${PAGE}&ec=14008`) });
    await open();
    fireEvent.change(input(), { target: { value: '87654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(describedText()).toBe(INVALID));
    expect(input().value).toBe('');
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(assign).not.toHaveBeenCalled();
    expect((document.getElementById('submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the invalid token error for ec=14008 in the page query', async () => {
    stubFetch(base);
    await open('?cobrandHost=acme&ec=14008');
    expect(describedText()).toBe(INVALID);
  });

  it('cancel logs out', async () => {
    stubFetch(base);
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
  });
});
