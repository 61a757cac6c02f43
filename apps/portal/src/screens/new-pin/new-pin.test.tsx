import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { browser } from '../../lib/browser.ts';
import { json, renderWithPortal, stubFetch, text } from '../../testing/portal.tsx';
import { pinFailure, validateNewPin } from './new-pin-flow.ts';
import NewPinScreen from './new-pin-screen.tsx';

const INFO = 'GET /sdportal/rest/rsapin/information';
const LOGIN = 'POST /heracles/login';
const LOGOUT = 'GET /heracles/logout';
const TOKENS = 'POST /services/twofactortoken-service/protected/tokens/ldap-7';
const LOGOUT_URL = '/sdportal/portalstatic/logout?cobrandHost=acme&locale=en_US';
const NEW_PIN_URL = '/sdportal/portalstatic/new-pin?cobrandHost=acme&locale=en_US';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

const base = {
  [INFO]: json({
    shouldAccess: true,
    forwardFormEndpoint: '/heracles/login',
    ldapId: 'ldap-7',
    b2BAlias: 'a',
  }),
  'GET /sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json': json({ warningAfterMs: 3_600_000 }),
  [LOGOUT]: text(LOGOUT_URL),
};

const field = (id: string) => document.getElementById(id) as HTMLInputElement;
const describedText = (id: string) =>
  document.getElementById(field(id).getAttribute('aria-describedby') ?? '')?.textContent ?? '';
const button = (id: string) => document.getElementById(id) as HTMLButtonElement;

function fill(newPin: string, confirmPin: string, nextPasscode: string) {
  fireEvent.change(field('newPin'), { target: { value: newPin } });
  fireEvent.change(field('confirmPin'), { target: { value: confirmPin } });
  fireEvent.change(field('nextPasscode'), { target: { value: nextPasscode } });
}

let assign: ReturnType<typeof vi.spyOn>;

async function open() {
  window.history.replaceState(null, '', NEW_PIN_URL);
  renderWithPortal(<NewPinScreen />);
  await waitFor(() => expect(field('newPin')).toBeTruthy());
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  sessionStorage.setItem('userId', 'token01');
  setCookie('sec-token=tok123; Path=/');
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('new-PIN rules', () => {
  it.each([
    [
      { newPin: '', confirmPin: '', nextPasscode: '' },
      { newPin: 'required', confirmPin: 'required', nextPasscode: 'invalidNextToken' },
    ],
    [
      { newPin: '123', confirmPin: '12345', nextPasscode: '1234567' },
      { newPin: 'pinFormat', confirmPin: 'pinFormat', nextPasscode: 'invalidNextToken' },
    ],
    [
      { newPin: '12a4', confirmPin: '12a4', nextPasscode: '1234567a' },
      { newPin: 'pinFormat', confirmPin: 'pinFormat', nextPasscode: 'invalidNextToken' },
    ],
    [{ newPin: '0123', confirmPin: '0123', nextPasscode: '12345678' }, { newPin: 'leadingZero' }],
    [{ newPin: '1234', confirmPin: '4321', nextPasscode: '12345678' }, { confirmPin: 'doNotMatch' }],
    [{ newPin: '1234', confirmPin: '1234', nextPasscode: '12345678' }, {}],
  ])('%j → %j', (values, errors) => {
    expect(validateNewPin(values)).toEqual(errors);
  });

  it('reads the token service failures as spec §8 says', () => {
    expect(pinFailure(new ApiError(400, 'pin.invalid', 'x', undefined, 'Invalid PIN'))).toBe('invalidPin');
    expect(pinFailure(new ApiError(422, 'x', 'x', undefined, 'Invalid PIN'))).toBe('invalidPin');
    expect(pinFailure(new ApiError(400, 'pin.invalid', 'Invalid PIN: four digits'))).toBe('invalidPin');
    expect(pinFailure(new ApiError(400, 'x', 'other', undefined, 'Bad Request'))).toBe('generic');
    expect(pinFailure(new ApiError(503, 'x', 'down'))).toBe('serverDown');
    expect(pinFailure(new ApiError(403, 'x', 'x'))).toBe('generic');
    expect(pinFailure(new Error('x'))).toBe('generic');
  });
});

describe('NewPinScreen', () => {
  it('logs out when the server says shouldAccess false', async () => {
    const { calls } = stubFetch({ ...base, [INFO]: json({ shouldAccess: false }) });
    window.history.replaceState(null, '', NEW_PIN_URL);
    renderWithPortal(<NewPinScreen />);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
    expect(calls[0]?.url).toBe('/sdportal/rest/rsapin/information?action=newpin');
    expect(calls[0]?.headers.get('Cache-Control')).toBe('no-cache');
  });

  it('logs out when the information call fails', async () => {
    stubFetch({ ...base, [INFO]: text('down', 500) });
    window.history.replaceState(null, '', NEW_PIN_URL);
    renderWithPortal(<NewPinScreen />);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
  });

  it('shows the title, three masked fields and the collapsible instructions', async () => {
    stubFetch(base);
    await open();
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([
      'New PIN and next passcode',
    ]);
    expect(screen.getByLabelText('New PIN').id).toBe('newPin');
    expect(screen.getByLabelText('Confirm new PIN').id).toBe('confirmPin');
    expect(screen.getByLabelText('Next passcode').id).toBe('nextPasscode');
    for (const id of ['newPin', 'confirmPin', 'nextPasscode']) expect(field(id).type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show next passcode' }));
    expect(field('nextPasscode').type).toBe('text');
    const toggle = screen.getByRole('button', { name: 'Hide' });
    const list = document.getElementById('new-pin-instructions') as HTMLElement;
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-controls')).toBe('new-pin-instructions');
    expect(list.querySelectorAll('li')).toHaveLength(4);
    expect(list.hidden).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toBe('Show');
    expect(list.hidden).toBe(true);
    expect(button('submit').textContent).toBe('Save and Continue');
  });

  it('validates on submit: errors per field, focus on the first, no call', async () => {
    const { calls } = stubFetch(base);
    await open();
    fill('0123', '0124', '123');
    fireEvent.click(button('submit'));
    expect(describedText('newPin')).toBe('The PIN must not start with 0.');
    expect(describedText('confirmPin')).toBe('The PINs do not match.');
    expect(describedText('nextPasscode')).toBe(
      'Invalid next passcode: enter the 8-digit passcode shown on your token.',
    );
    expect(document.activeElement).toBe(field('newPin'));
    fill('12', '', '12345678');
    fireEvent.click(button('submit'));
    expect(describedText('newPin')).toBe('The PIN must be 4 digits.');
    expect(describedText('confirmPin')).toBe('Required field');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('keeps the PIN in setPin while the passcode signs in, posts the PIN, then follows the redirect', async () => {
    let releaseLogin: (r: Response) => void = () => {};
    const seen: (string | null)[] = [];
    const { calls } = stubFetch({
      ...base,
      [LOGIN]: () => {
        seen.push(localStorage.getItem('setPin'));
        return new Promise<Response>((r) => (releaseLogin = r));
      },
      [TOKENS]: json({ ok: true, redirect: LOGOUT_URL }),
    });
    await open();
    fill('2580', '2580', '12345678');
    fireEvent.click(button('submit'));
    await waitFor(() => expect(seen).toEqual(['2580']));
    // both buttons are disabled while a request runs
    expect(button('submit').disabled).toBe(true);
    expect(button('cancel').disabled).toBe(true);
    releaseLogin(text(NEW_PIN_URL));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
    const login = calls.find((c) => c.url === '/heracles/login');
    expect(Object.fromEntries(new URLSearchParams(login?.body ?? ''))).toEqual({
      username: 'token01',
      password: '12345678',
      'login-form-type': 'token',
    });
    const post = calls.find((c) => c.url.includes('/tokens/'));
    expect(JSON.parse(post?.body ?? '')).toEqual({ newPin: '2580' });
    expect(post?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    expect(localStorage.getItem('setPin')).toBeNull();
  });

  it('sends a pending setPin at once on load, and removes it', async () => {
    localStorage.setItem('setPin', '7531');
    const { calls } = stubFetch({ ...base, [TOKENS]: json({ ok: true, redirect: LOGOUT_URL }) });
    window.history.replaceState(null, '', NEW_PIN_URL);
    renderWithPortal(<NewPinScreen />);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
    expect(JSON.parse(calls.find((c) => c.url.includes('/tokens/'))?.body ?? '')).toEqual({ newPin: '7531' });
    expect(calls.some((c) => c.url === '/heracles/login')).toBe(false);
    expect(localStorage.getItem('setPin')).toBeNull();
  });

  it('removes setPin and logs out when the passcode login fails', async () => {
    const { calls } = stubFetch({ ...base, [LOGIN]: text('Login failed', 401) });
    await open();
    fill('2580', '2580', '12345678');
    fireEvent.click(button('submit'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
    expect(localStorage.getItem('setPin')).toBeNull();
    expect(calls.some((c) => c.url.includes('/tokens/'))).toBe(false);
  });

  it.each([400, 422])('stays with "invalid PIN" on the PIN field for %i Invalid PIN', async (status) => {
    stubFetch({
      ...base,
      [LOGIN]: text(NEW_PIN_URL),
      [TOKENS]: new Response(JSON.stringify({ code: 'pin.invalid', message: 'x' }), {
        status,
        statusText: 'Invalid PIN',
        headers: { 'Content-Type': 'application/json' },
      }),
    });
    await open();
    fill('2468', '2468', '12345678');
    fireEvent.click(button('submit'));
    await waitFor(() =>
      expect(describedText('newPin')).toBe(
        'Invalid PIN. Choose another PIN: 4 digits, not starting with 0, and not your current PIN.',
      ),
    );
    // Focus moves in an effect after the answer's render: wait for it as for the text (the answer comes
    // from a promise, outside act, so the effect may run a tick after the text shows).
    await waitFor(() => expect(document.activeElement).toBe(field('newPin')));
    expect(button('submit').disabled).toBe(false);
    expect(assign).not.toHaveBeenCalled();
    expect(localStorage.getItem('setPin')).toBeNull();
  });

  it.each([
    [503, 'newPin.error.serverDown'],
    [500, 'newPin.error.generic'],
    [403, 'newPin.error.generic'],
  ])('a %i stores the logout message %s and logs out', async (status, key) => {
    stubFetch({ ...base, [LOGIN]: text(NEW_PIN_URL), [TOKENS]: json({ code: 'x', message: 'x' }, status) });
    await open();
    fill('2468', '2468', '12345678');
    fireEvent.click(button('submit'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
    expect(sessionStorage.getItem('logoutMessage')).toBe(key);
  });

  it('cancel logs out', async () => {
    stubFetch(base);
    await open();
    fireEvent.click(button('cancel'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
  });
});
