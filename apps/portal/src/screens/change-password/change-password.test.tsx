import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser.ts';
import { json, renderWithPortal, stubFetch, text } from '../../testing/portal.tsx';
import { errorsFromGatewayCode, validateChangePassword } from './change-password-flow.ts';
import ChangePasswordScreen from './change-password-screen.tsx';

const CHANGE = 'POST /services/authentication-service/public/changePassword';
const LOGIN = 'POST /heracles/login';
const LOGOUT = 'GET /heracles/logout';
const URLS = 'GET /sdportal/rest/changepasswordserviceurls';
const LOGOUT_URL = '/sdportal/portalstatic/logout?cobrandHost=acme&locale=en_US';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

// The session-warning content is fetched on mount; a long idle time keeps the modal out of these tests.
const warningRoutes = {
  'GET /sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json': json({ warningAfterMs: 3_600_000 }),
};

const field = (id: string) => document.getElementById(id) as HTMLInputElement;
const summary = () => document.getElementById('change-password-errors') as HTMLElement;
const describedText = (id: string) =>
  document.getElementById(field(id).getAttribute('aria-describedby') ?? '')?.textContent ?? '';

function fill(old: string, new1: string, new2: string) {
  fireEvent.change(field('old'), { target: { value: old } });
  fireEvent.change(field('new1'), { target: { value: new1 } });
  fireEvent.change(field('new2'), { target: { value: new2 } });
}

const submit = () => fireEvent.click(document.getElementById('submit') as HTMLButtonElement);

let assign: ReturnType<typeof vi.spyOn>;

function open(query = '?cobrandHost=acme&locale=en_US') {
  window.history.replaceState(null, '', `/sdportal/portalstatic/change-password${query}`);
  renderWithPortal(<ChangePasswordScreen />);
}

beforeEach(() => {
  sessionStorage.clear();
  sessionStorage.setItem('userId', 'expired01');
  setCookie('sec-token=tok123; Path=/');
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('change-password rules', () => {
  it('validates required, user ID, construction and confirmation (trimmed)', () => {
    expect(validateChangePassword({ old: ' ', new1: '', new2: '' }, 'u')).toEqual({
      old: 'required',
      new1: 'required',
      new2: 'required',
    });
    expect(validateChangePassword({ old: 'x', new1: 'Expired01Expired', new2: 'x' }, 'expired01')).toEqual({
      new2: 'mismatch',
    });
    expect(
      validateChangePassword({ old: 'x', new1: 'user-id-00001', new2: 'user-id-00001' }, 'USER-ID-00001'),
    ).toEqual({ new1: 'matchesUserId' });
    expect(validateChangePassword({ old: 'x', new1: 'short1', new2: 'short1' }, 'u')).toEqual({
      new1: 'construction',
    });
    expect(validateChangePassword({ old: 'x', new1: ' Good-Passw0rd ', new2: 'Good-Passw0rd' }, 'u')).toEqual(
      {},
    );
  });

  it('maps the web-gateway codes of ec onto fields', () => {
    expect(errorsFromGatewayCode('0x132120c9')).toEqual({ old: 'wrongCurrent' });
    expect(errorsFromGatewayCode('0x38CF07EC')).toEqual({ new2: 'mismatch' });
    for (const ec of ['0x38cf07eb', '0x1321212d', '0x1321212c']) {
      expect(errorsFromGatewayCode(ec)).toEqual({ new1: 'construction' });
    }
    expect(errorsFromGatewayCode('0xdeadbeef')).toEqual({});
    expect(errorsFromGatewayCode(null)).toEqual({});
  });
});

describe('ChangePasswordScreen', () => {
  it('has the title, three masked fields with their own toggles, and four construction lines', () => {
    stubFetch(warningRoutes);
    open();
    const headings = screen.getAllByRole('heading', { level: 1 });
    expect(headings.map((h) => h.textContent)).toEqual(['Create a new password']);
    expect(document.title).toBe('Create a new password | Acme Card');
    expect(screen.getByLabelText('Current password').id).toBe('old');
    expect(screen.getByLabelText('New password').id).toBe('new1');
    expect(screen.getByLabelText('Confirm new password').id).toBe('new2');
    for (const id of ['old', 'new1', 'new2']) expect(field(id).type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(field('new1').type).toBe('text');
    const rules = screen.getByRole('list', { name: 'Your new password must:' });
    expect(rules.querySelectorAll('li')).toHaveLength(4);
    expect(rules.textContent).toContain('be 12 to 20 characters long');
    expect(rules.textContent).toContain('any of your last 4 passwords');
    expect(document.getElementById('submit')?.textContent).toBe('Submit');
    expect(document.getElementById('cancel')?.textContent).toBe('Cancel');
  });

  it('blocks a submit with errors: the summary counts them, links to each field and takes focus', () => {
    const { calls } = stubFetch(warningRoutes);
    open();
    submit();
    expect(summary().querySelector('h2')?.textContent).toBe('There are 3 errors on this page');
    const links = Array.from(summary().querySelectorAll('a'));
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['#old', '#new1', '#new2']);
    expect(links[0]?.textContent).toBe('Current password: Required field missing');
    expect(document.activeElement).toBe(summary());
    expect(describedText('old')).toBe('The above field is required.');
    expect(field('new2').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(links[1] as HTMLAnchorElement);
    expect(document.activeElement).toBe(field('new1'));
    expect(calls.some((c) => c.url.includes('changePassword'))).toBe(false);
  });

  it("uses the single error's own header, e.g. passwords do not match or password matches user id", () => {
    stubFetch(warningRoutes);
    open();
    fill('Old-Passw0rd', 'Good-Passw0rd1', 'Good-Passw0rd2');
    submit();
    expect(summary().querySelector('h2')?.textContent).toBe('Passwords do not match');
    expect(describedText('new2')).toBe(
      'The passwords do not match. Enter the same new password in both fields.',
    );
    fill('Old-Passw0rd', 'expired01', 'expired01');
    submit();
    expect(summary().querySelector('h2')?.textContent).toBe('Password matches user ID');
    expect(describedText('new1')).toBe('Your new password must not be the same as your user ID.');
  });

  it.each([
    ['0x132120c9', 'old', 'The current password you entered does not match our records.'],
    ['0x38cf07ec', 'new2', 'The passwords do not match. Enter the same new password in both fields.'],
    ['0x1321212c', 'new1', 'The new password does not meet the password construction rules.'],
  ])('marks the field of ec=%s', (ec, id, message) => {
    stubFetch(warningRoutes);
    open(`?cobrandHost=acme&locale=en_US&ec=${ec}`);
    expect(describedText(id)).toBe(message);
    expect(summary().querySelectorAll('a')).toHaveLength(1);
  });

  it('changes the password (trimmed), signs in again with the new one and follows the answer', async () => {
    const { calls } = stubFetch({ ...warningRoutes, [CHANGE]: json({ ok: true }), [LOGIN]: text('/app/') });
    open();
    fill(' Old-Passw0rd ', ' New-Passw0rd1 ', 'New-Passw0rd1');
    submit();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/app/'));
    const change = calls.find((c) => c.url.endsWith('/changePassword'));
    expect(JSON.parse(change?.body ?? '')).toEqual({
      userId: 'expired01',
      oldCredential: 'Old-Passw0rd',
      newCredential: 'New-Passw0rd1',
    });
    expect(change?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    const login = calls.find((c) => c.url === '/heracles/login');
    expect(Object.fromEntries(new URLSearchParams(login?.body ?? ''))).toEqual({
      username: 'expired01',
      password: 'New-Passw0rd1',
      'login-form-type': 'password',
      cobrandHost: 'acme',
      locale: 'en_US',
    });
  });

  it('goes to the logout URL when the re-login fails', async () => {
    stubFetch({
      ...warningRoutes,
      [CHANGE]: json({ ok: true }),
      [LOGIN]: text('Login failed', 401),
      [LOGOUT]: text(LOGOUT_URL),
    });
    open();
    fill('Old-Passw0rd', 'New-Passw0rd1', 'New-Passw0rd1');
    submit();
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
  });

  it('with dest=MyProfile, success and cancel go to cancelPasswordReset', async () => {
    const { calls } = stubFetch({
      ...warningRoutes,
      [CHANGE]: json({ ok: true }),
      [URLS]: json({ changePassword: '/x', autoLogout: '/y', cancelPasswordReset: '/app/profile' }),
    });
    open('?cobrandHost=acme&locale=en_US&dest=MyProfile');
    fill('Old-Passw0rd', 'New-Passw0rd1', 'New-Passw0rd1');
    submit();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/app/profile'));
    expect(calls.some((c) => c.url === '/heracles/login')).toBe(false);
  });

  it('cancel with dest=MyProfile goes to cancelPasswordReset; without dest it logs out', async () => {
    stubFetch({
      ...warningRoutes,
      [URLS]: json({ cancelPasswordReset: '/app/profile' }),
      [LOGOUT]: text(LOGOUT_URL),
    });
    open('?cobrandHost=acme&locale=en_US&dest=MyProfile');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/app/profile'));
  });

  it('cancel without dest logs out (GET /heracles/logout, then its URL)', async () => {
    const { calls } = stubFetch({ ...warningRoutes, [LOGOUT]: text(LOGOUT_URL) });
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
    expect(calls.some((c) => c.url === '/heracles/logout')).toBe(true);
  });

  it.each([
    ['invalid.credentials', 'old', 'Current password does not match'],
    ['password.policy', 'new1', 'Password does not meet the rules'],
  ])('a 400 %s marks %s', async (code, id, header) => {
    stubFetch({
      ...warningRoutes,
      [CHANGE]: json(
        { code, message: 'x', error: [{ code, message: 'x' }], errors: [{ code, message: 'x' }] },
        400,
      ),
    });
    open();
    fill('Old-Passw0rd', 'New-Passw0rd1', 'New-Passw0rd1');
    submit();
    await waitFor(() => expect(summary().querySelector('h2')?.textContent).toBe(header));
    expect(field(id).getAttribute('aria-invalid')).toBe('true');
    // The answer comes from a promise, outside act: focus (an effect) may follow the text by a tick.
    await waitFor(() => expect(document.activeElement).toBe(summary()));
    expect((document.getElementById('submit') as HTMLButtonElement).disabled).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });

  const policyRefusal = (problems: string[], minLength: number) => {
    const entry = { problems, minLength, code: 'password.policy', message: 'x' };
    return json({ ...entry, error: [entry], errors: [entry] }, 400);
  };

  it('a common password (password.policy with problems ["common"]) says so on new1', async () => {
    stubFetch({ ...warningRoutes, [CHANGE]: policyRefusal(['common'], 12) });
    open();
    fill('Old-Passw0rd', 'Password123!', 'Password123!');
    submit();
    await waitFor(() => expect(summary().querySelector('h2')?.textContent).toBe('Password is too common'));
    expect(field('new1').getAttribute('aria-invalid')).toBe('true');
    expect(describedText('new1')).toMatch(/one of the most commonly used passwords/);
    await waitFor(() => expect(document.activeElement).toBe(summary()));
    expect(assign).not.toHaveBeenCalled();
  });

  it("a refusal naming the issuer's minimum restates the length rule and checks it before the next send", async () => {
    const { calls } = stubFetch({ ...warningRoutes, [CHANGE]: policyRefusal(['tooShort'], 16) });
    open();
    expect(screen.getByText('be 12 to 20 characters long')).toBeDefined();
    fill('Old-Passw0rd', 'New-Passw0rd1', 'New-Passw0rd1');
    submit();
    await waitFor(() =>
      expect(summary().querySelector('h2')?.textContent).toBe('Password does not meet the rules'),
    );
    expect(screen.getByText('be 16 to 20 characters long')).toBeDefined();
    const sent = calls.filter((c) => c.url.endsWith('/changePassword')).length;
    submit();
    expect(field('new1').getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.url.endsWith('/changePassword')).length).toBe(sent);
  });

  it('any other failure cancels (logout)', async () => {
    stubFetch({ ...warningRoutes, [CHANGE]: text('boom', 500), [LOGOUT]: text(LOGOUT_URL) });
    open();
    fill('Old-Passw0rd', 'New-Passw0rd1', 'New-Passw0rd1');
    submit();
    await waitFor(() => expect(assign).toHaveBeenCalledWith(LOGOUT_URL));
  });
});
