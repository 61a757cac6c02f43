import { LIMITS } from '@cardportal/domain';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser.ts';
import { json, makeCobrand, makePortal, renderWithPortal, stubFetch, text } from '../../testing/portal.tsx';
import { decodeRedirect, validateSignin } from './signin-flow.ts';
import { SigninScreen } from './signin-screen.tsx';

const LOGIN_URL = '/heracles/login';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

function okRoutes(loginAnswer: () => Response | Promise<Response> = () => text('/app/')) {
  return {
    'GET /heracles/logout': text('/sdportal/portalstatic/logout'),
    'POST /sdportal/rest/user/loginSignin': json({ ldapId: 'x', loginType: 'pwd', b2BAlias: 'y' }),
    [`POST ${LOGIN_URL}`]: loginAnswer,
    'PUT /sdportal/rest/log/logErrorStatement.json': new Response(null, { status: 204 }),
  };
}

function fill(userId: string, password: string) {
  fireEvent.change(screen.getByLabelText('User ID'), { target: { value: userId } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
}

const submitButton = () => screen.getByRole('button', { name: 'Sign in' });

let assign: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  window.history.replaceState(null, '', '/sdportal/portalstatic/signin?cobrandHost=acme&locale=en_US');
  sessionStorage.clear();
  sessionStorage.setItem('COBRAND', 'acme');
  setCookie('sec-token=tok123; Path=/');
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
  vi.spyOn(browser, 'reload').mockImplementation(() => {});
});

afterEach(() => {
  setCookie('sec-token=; Max-Age=0; Path=/');
  vi.useRealTimers();
});

describe('validateSignin / decodeRedirect', () => {
  it('requires both fields after trimming', () => {
    expect(validateSignin({ userId: '  ', password: '' })).toEqual({
      userId: 'required',
      password: 'required',
    });
    expect(validateSignin({ userId: 'a', password: ' p ' })).toEqual({});
  });
  it('decodes only percent-encoded answers', () => {
    expect(decodeRedirect('%2Fapp%2F%3Fa%3Db')).toBe('/app/?a=b');
    expect(decodeRedirect(' /app/ \n')).toBe('/app/');
    expect(decodeRedirect('%2F%E0%A4%A')).toBe('');
  });
});

describe('SigninScreen', () => {
  it('offers the user ID of the user_id cookie, but not after a failed sign-in (spec §3, issue 22)', async () => {
    stubFetch(okRoutes());
    setCookie('user_id=ana.lopez%40example; Path=/');
    try {
      const first = renderWithPortal(<SigninScreen />);
      await waitFor(() =>
        expect((screen.getByLabelText('User ID') as HTMLInputElement).value).toBe('ana.lopez@example'),
      );
      expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
      first.unmount();
      window.history.replaceState(
        null,
        '',
        '/sdportal/portalstatic/signin?cobrandHost=acme&invalidLogin=true',
      );
      renderWithPortal(<SigninScreen />);
      await screen.findByRole('alert');
      expect((screen.getByLabelText('User ID') as HTMLInputElement).value).toBe('');
    } finally {
      setCookie('user_id=; Max-Age=0; Path=/');
    }
  });

  it('renders the co-brand heading, title and labelled fields with stable ids', () => {
    stubFetch({});
    renderWithPortal(<SigninScreen />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in to Acme Card');
    expect(document.title).toBe('Sign in to Acme Card');
    expect(screen.getByLabelText('User ID').id).toBe('userId');
    expect(screen.getByLabelText('Password').id).toBe('password');
    expect(submitButton().id).toBe('signin-submit');
    expect(document.getElementById('signin-error')?.getAttribute('role')).toBe('alert');
    const forgot = screen.getByRole('link', { name: 'Forgot your password?' });
    expect(forgot.getAttribute('href')).toBe(
      '/sdportal/portalstatic/forgot-password?cobrandHost=acme&locale=en_US',
    );
  });

  it('shows required errors, marks the fields and focuses the first invalid one, without any call', () => {
    const { calls } = stubFetch({});
    renderWithPortal(<SigninScreen />);
    fireEvent.click(submitButton());
    const userId = screen.getByLabelText('User ID');
    expect(userId.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(userId.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Required field',
    );
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(userId);
    expect(calls).toHaveLength(0);

    fireEvent.change(userId, { target: { value: 'alice' } });
    fireEvent.click(submitButton());
    expect(userId.getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
  });

  it('runs logout → loginSignin → login with trimmed values, then goes to the returned URL', async () => {
    let releaseLogin: (r: Response) => void = () => {};
    const { calls } = stubFetch(okRoutes(() => new Promise<Response>((resolve) => (releaseLogin = resolve))));
    sessionStorage.setItem('stale', 'x');
    renderWithPortal(<SigninScreen />);
    fill('  alice ', ' s3cret-pass ');
    fireEvent.click(submitButton());

    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(`POST ${LOGIN_URL}`));
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /heracles/logout',
      'POST /sdportal/rest/user/loginSignin',
      `POST ${LOGIN_URL}`,
    ]);
    // in progress: disabled, busy
    const busyButton = screen.getByRole('button', { name: 'Signing in…' });
    expect((busyButton as HTMLButtonElement).disabled).toBe(true);
    expect(busyButton.closest('form')?.getAttribute('aria-busy')).toBe('true');
    // storage: cleared except COBRAND, userId stored
    expect(sessionStorage.getItem('stale')).toBeNull();
    expect(sessionStorage.getItem('COBRAND')).toBe('acme');
    expect(sessionStorage.getItem('userId')).toBe('alice');

    expect(JSON.parse(calls[1]?.body ?? '')).toEqual({ userId: 'alice' });
    expect(calls[1]?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    const form = new URLSearchParams(calls[2]?.body ?? '');
    expect(Object.fromEntries(form)).toEqual({
      username: 'alice',
      password: 's3cret-pass',
      'login-form-type': 'password',
      cobrandHost: 'acme',
      locale: 'en_US',
    });
    expect(calls[2]?.headers.get('X-XSRF-TOKEN')).toBe('tok123');
    for (const call of calls) expect(call.headers.get('X-Requested-With')).toBe('XMLHttpRequest');

    // the login descriptor is kept for the one-time-passcode step
    expect(JSON.parse(sessionStorage.getItem('loginDescriptor') ?? '')).toEqual({
      ldapId: 'x',
      loginType: 'pwd',
      b2BAlias: 'y',
    });
    releaseLogin(text('%2Fsdportal%2Fportalstatic%2Fotp%3FcobrandHost%3Dacme'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sdportal/portalstatic/otp?cobrandHost=acme'));
  });

  it('ignores a failing logout call', async () => {
    stubFetch({ ...okRoutes(), 'GET /heracles/logout': text('down', 503) });
    renderWithPortal(<SigninScreen />);
    fill('alice', 'pw');
    fireEvent.click(submitButton());
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/app/'));
  });

  it('on 401: clears both inputs, shows login failed, re-enables and focuses the error region', async () => {
    const { calls } = stubFetch(okRoutes(() => text('Login failed', 401)));
    renderWithPortal(<SigninScreen />);
    fill('alice', 'wrong');
    fireEvent.click(submitButton());
    const region = document.getElementById('signin-error') as HTMLElement;
    await waitFor(() => expect(region.textContent).toContain('Login failed'));
    expect(region.textContent).toContain('The user ID or password you entered is incorrect');
    expect((screen.getByLabelText('User ID') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect((submitButton() as HTMLButtonElement).disabled).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(region));
    expect(assign).not.toHaveBeenCalled();
    // a wrong password is not a service failure: nothing logged
    expect(calls.some((c) => c.url.includes('logErrorStatement'))).toBe(false);
  });

  it('on 500: shows the system error and logs the failure without user input', async () => {
    const { calls } = stubFetch(okRoutes(() => text('boom', 500)));
    renderWithPortal(<SigninScreen />);
    fill('alice', 'Secret-Passw0rd');
    fireEvent.click(submitButton());
    const region = document.getElementById('signin-error') as HTMLElement;
    await waitFor(() => expect(region.textContent).toContain('System error occurred'));
    expect(region.textContent).toContain('because of a system error');
    const log = await vi.waitFor(() => {
      const found = calls.find((c) => c.url.includes('logErrorStatement'));
      if (!found) throw new Error('not logged yet');
      return found;
    });
    expect(log.method).toBe('PUT');
    expect(typeof JSON.parse(log.body ?? '')).toBe('string');
    expect(log.body).not.toContain('alice');
    expect(log.body).not.toContain('Secret-Passw0rd');
  });

  it('treats a foreign redirect as a failed login', async () => {
    stubFetch(okRoutes(() => text('https://evil.example/app/')));
    renderWithPortal(<SigninScreen />);
    fill('alice', 'pw');
    fireEvent.click(submitButton());
    await waitFor(() =>
      expect(document.getElementById('signin-error')?.textContent).toContain('Login failed'),
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it('treats a loginSignin failure as a failure (500 → system error)', async () => {
    const { calls } = stubFetch({ ...okRoutes(), 'POST /sdportal/rest/user/loginSignin': text('x', 500) });
    renderWithPortal(<SigninScreen />);
    fill('alice', 'pw');
    fireEvent.click(submitButton());
    await waitFor(() =>
      expect(document.getElementById('signin-error')?.textContent).toContain('System error occurred'),
    );
    expect(calls.some((c) => c.url === LOGIN_URL)).toBe(false);
  });

  it('shows the login-failed error for invalidLogin=true', () => {
    window.history.replaceState(null, '', '/sdportal/portalstatic/signin?invalidLogin=true');
    stubFetch({});
    renderWithPortal(<SigninScreen />);
    expect(document.getElementById('signin-error')?.textContent).toContain('Login failed');
  });

  it('uses the special button label for the bnc co-brand', () => {
    stubFetch({});
    renderWithPortal(<SigninScreen />, makePortal({ cobrand: makeCobrand({ abbreviation: 'bnc' }) }));
    expect(screen.getByRole('button', { name: 'Log on' }).id).toBe('signin-submit');
  });

  it('toggles the password visibility with an aria-pressed button', () => {
    stubFetch({});
    renderWithPortal(<SigninScreen />);
    const toggle = screen.getByRole('button', { name: 'Show password' });
    const input = screen.getByLabelText('Password') as HTMLInputElement;
    expect(toggle.getAttribute('aria-controls')).toBe('password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(input.type).toBe('password');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(input.type).toBe('text');
  });

  it('shows the registration and application links only as the co-brand allows', async () => {
    stubFetch({});
    renderWithPortal(
      <SigninScreen />,
      makePortal({
        cobrand: makeCobrand({
          companySelfRegisterSupported: false,
          companySelfRegisterUrl: 'https://bank.example/company',
          cardholderSelfRegisterUrl: 'https://bank.example/cardholder',
          prospectiveAccountApplicationSupported: true,
          prospectiveAccountApplicationUrl: '/apply',
        }),
      }),
    );
    const cardholder = await screen.findByRole('link', { name: 'Register as a cardholder' });
    expect(cardholder.getAttribute('href')).toBe('https://bank.example/cardholder');
    expect(cardholder.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'Apply for a new card account' }).getAttribute('href')).toBe(
      '/apply',
    );
    expect(screen.queryByRole('link', { name: 'Register your company' })).toBeNull();
  });

  it("links cardholder and company self-registration to the portal's own screens when the co-brand names no page", async () => {
    stubFetch({});
    renderWithPortal(
      <SigninScreen />,
      makePortal({
        cobrand: makeCobrand({
          cardholderSelfRegisterUrl: null,
          companySelfRegisterSupported: true,
          companySelfRegisterUrl: null,
        }),
      }),
    );
    expect((await screen.findByRole('link', { name: 'Register your company' })).getAttribute('href')).toMatch(
      /^\/sdportal\/portalstatic\/register-company\?/,
    );
    const link = await screen.findByRole('link', { name: 'Register as a cardholder' });
    expect(link.getAttribute('href')).toMatch(
      /^\/sdportal\/portalstatic\/register\?cobrandHost=[^&]+&locale=en_US$/,
    );
    expect(link.getAttribute('rel')).toBeNull();
  });

  it('runs the deferred tasks: set-PIN removal at 50 ms, forced reload after forceRefreshMillis', () => {
    vi.useFakeTimers();
    stubFetch({});
    localStorage.setItem('setPin', '1234');
    renderWithPortal(<SigninScreen />);
    act(() => vi.advanceTimersByTime(49));
    expect(localStorage.getItem('setPin')).toBe('1234');
    act(() => vi.advanceTimersByTime(1));
    expect(localStorage.getItem('setPin')).toBeNull();
    act(() => vi.advanceTimersByTime(450 + LIMITS.forceRefreshMillis - 1));
    expect(browser.reload).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(browser.reload).toHaveBeenCalledTimes(1);
  });

  it('keeps working without text bundles: controls are named from their keys', () => {
    stubFetch({});
    renderWithPortal(<SigninScreen />, makePortal({ t: () => '' }));
    expect(screen.getByRole('textbox', { name: 'signin.userId.label' }).id).toBe('userId');
    expect(screen.getByRole('button', { name: 'signin.submit' }).id).toBe('signin-submit');
    expect(screen.getByRole('button', { name: 'signin.password.toggle' })).toBeTruthy();
  });

  it('redirects a federated-SSO co-brand', () => {
    stubFetch({});
    renderWithPortal(
      <SigninScreen />,
      makePortal({ cobrand: makeCobrand({ fssoRedirectUrl: 'https://idp.bank.example/sso' }) }),
    );
    expect(assign).toHaveBeenCalledWith('https://idp.bank.example/sso');
  });
});
