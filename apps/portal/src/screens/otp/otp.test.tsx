import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser.ts';
import { json, renderWithPortal, stubFetch, text } from '../../testing/portal.tsx';
import { enterDigits, typedInto } from './otp-code.ts';
import OtpScreen from './otp-screen.tsx';

const LOGIN = 'POST /heracles/login';
const RESEND = 'POST /services/authentication-service/protected/one-time-pins';
const LOG = 'PUT /sdportal/rest/log/logErrorStatement.json';

function setCookie(value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: test setup
  document.cookie = value;
}

const box = (i: number) => document.getElementById(`otp-${i}`) as HTMLInputElement;
const values = () => Array.from({ length: 6 }, (_, i) => box(i).value).join('');
const signIn = () => document.getElementById('otp-submit') as HTMLButtonElement;
const errorRegion = () => document.getElementById('otp-error') as HTMLElement;

function typeCode(code: string) {
  [...code].forEach((digit, i) => {
    fireEvent.change(box(i), { target: { value: digit } });
  });
}

let assign: ReturnType<typeof vi.spyOn>;

function open(query = '?cobrandHost=acme&locale=en_US&delivery=j***%40example.com') {
  window.history.replaceState(null, '', `/sdportal/portalstatic/otp${query}`);
  renderWithPortal(<OtpScreen />);
}

beforeEach(() => {
  sessionStorage.clear();
  sessionStorage.setItem('userId', 'otpuser01');
  sessionStorage.setItem(
    'loginDescriptor',
    JSON.stringify({ ldapId: 'ldap-1', loginType: 'otp-2fa', b2BAlias: 'alias-1' }),
  );
  setCookie('sec-token=tok123; Path=/');
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});

afterEach(() => setCookie('sec-token=; Max-Age=0; Path=/'));

describe('otp code helpers', () => {
  it('strips non-digits, fills from the box, fills all for a whole code', () => {
    const empty = ['', '', '', '', '', ''];
    expect(enterDigits(empty, 2, 'a')).toEqual({ code: empty, focus: null });
    expect(enterDigits(empty, 2, '7')).toEqual({ code: ['', '', '7', '', '', ''], focus: 3 });
    expect(enterDigits(empty, 4, '123').code).toEqual(['', '', '', '', '1', '2']);
    expect(enterDigits(empty, 3, '12-34 56')).toEqual({ code: ['1', '2', '3', '4', '5', '6'], focus: 5 });
    expect(typedInto('5', '57')).toBe('7');
    expect(typedInto('5', '75')).toBe('7');
    expect(typedInto('', 'x')).toBe('');
  });
});

describe('OtpScreen', () => {
  it('has one h1, six labelled numeric boxes in a fieldset, the masked address and the expiry', () => {
    stubFetch({});
    open();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const group = screen.getByRole('group', { name: 'One-time passcode' });
    expect(group.tagName).toBe('FIELDSET');
    for (let i = 0; i < 6; i++) {
      const input = screen.getByLabelText(`Digit ${i + 1} of 6`) as HTMLInputElement;
      expect(input.id).toBe(`otp-${i}`);
      expect(input.inputMode).toBe('numeric');
      expect(group.contains(input)).toBe(true);
    }
    expect(box(0).getAttribute('autocomplete')).toBe('one-time-code');
    expect(box(1).getAttribute('autocomplete')).toBe('off');
    expect(screen.getByText('We sent a 6-digit code to j***@example.com.')).toBeTruthy();
    expect(screen.getByText('The code expires after 15 minutes.')).toBeTruthy();
  });

  it('strips non-digits and moves focus forward on a digit, back on Backspace/Delete in an empty box', () => {
    stubFetch({});
    open();
    box(0).focus();
    fireEvent.change(box(0), { target: { value: 'x' } });
    expect(box(0).value).toBe('');
    expect(document.activeElement).toBe(box(0));
    fireEvent.change(box(0), { target: { value: '4' } });
    expect(box(0).value).toBe('4');
    expect(document.activeElement).toBe(box(1));
    fireEvent.keyDown(box(1), { key: 'Backspace' });
    expect(document.activeElement).toBe(box(0));
    box(3).focus();
    fireEvent.keyDown(box(3), { key: 'Delete' });
    expect(document.activeElement).toBe(box(2));
    // a box with a digit keeps focus on Backspace (the browser deletes the digit)
    box(0).focus();
    fireEvent.keyDown(box(0), { key: 'Backspace' });
    expect(document.activeElement).toBe(box(0));
  });

  it('fills every box from a pasted six-digit code', () => {
    stubFetch({});
    open();
    fireEvent.paste(box(2), { clipboardData: { getData: () => ' 123 456 ' } });
    expect(values()).toBe('123456');
    expect(document.activeElement).toBe(box(5));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBe(signIn());
  });

  it('shows "code required" only after focus leaves the group, or on submit', () => {
    const { calls } = stubFetch({});
    open();
    box(0).focus();
    fireEvent.blur(box(0), { relatedTarget: box(1) });
    expect(errorRegion().textContent).toBe('');
    fireEvent.blur(box(1), { relatedTarget: signIn() });
    expect(errorRegion().textContent).toBe('Code required: enter all 6 digits.');
    expect(errorRegion().getAttribute('role')).toBe('alert');
    expect(box(0).getAttribute('aria-describedby')).toBe('otp-error');
    expect(box(0).getAttribute('aria-invalid')).toBe('true');
    typeCode('12');
    fireEvent.click(signIn());
    expect(calls).toHaveLength(0);
    expect(document.activeElement).toBe(box(2));
    expect(box(0).getAttribute('aria-invalid')).toBeNull();
    expect(box(2).getAttribute('aria-invalid')).toBe('true');
  });

  it('marks every box invalid with "invalid code" when the error parameter is present', () => {
    stubFetch({});
    open('?cobrandHost=acme&delivery=j***%40example.com&error=true');
    expect(errorRegion().textContent).toBe('Invalid code. Check the code and try again, or send a new code.');
    for (let i = 0; i < 6; i++) expect(box(i).getAttribute('aria-invalid')).toBe('true');
  });

  it('signs in with the code (form-encoded, CSRF) and follows the answered URL; no double submit', async () => {
    let release: (r: Response) => void = () => {};
    const { calls } = stubFetch({ [LOGIN]: () => new Promise<Response>((r) => (release = r)) });
    open();
    typeCode('654321');
    fireEvent.click(signIn());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(signIn().disabled).toBe(true);
    fireEvent.submit(signIn().closest('form') as HTMLFormElement);
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(calls[0]?.body ?? ''))).toEqual({
      username: 'otpuser01',
      password: '654321',
      'login-form-type': 'otp',
      ldapId: 'ldap-1',
      loginType: 'otp-2fa',
      b2BAlias: 'alias-1',
      cobrandHost: 'acme',
      locale: 'en_US',
    });
    expect(calls[0]?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    release(text('/sdportal/portalstatic/otp?cobrandHost=acme&delivery=j***%40example.com&error=true'));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith(
        '/sdportal/portalstatic/otp?cobrandHost=acme&delivery=j***%40example.com&error=true',
      ),
    );
  });

  it('only logs a failed submit and re-enables the button', async () => {
    const { calls } = stubFetch({ [LOGIN]: text('boom', 500), [LOG]: new Response(null, { status: 204 }) });
    open();
    typeCode('111111');
    fireEvent.click(signIn());
    await waitFor(() => expect(calls.some((c) => c.url.includes('logErrorStatement'))).toBe(true));
    await waitFor(() => expect(signIn().disabled).toBe(false));
    const log = calls.find((c) => c.url.includes('logErrorStatement'));
    expect(log?.body).not.toContain('111111');
    expect(assign).not.toHaveBeenCalled();
  });

  it('does not follow a foreign answer', async () => {
    stubFetch({ [LOGIN]: text('https://evil.example/'), [LOG]: new Response(null, { status: 204 }) });
    open();
    typeCode('111111');
    fireEvent.click(signIn());
    await waitFor(() => expect(signIn().disabled).toBe(false));
    expect(assign).not.toHaveBeenCalled();
  });

  it('resend clears the boxes, asks for a new code and announces the new masked address', async () => {
    const { calls } = stubFetch({ [RESEND]: json({ emailAddress: 'n***@example.org' }) });
    open('?cobrandHost=acme&delivery=j***%40example.com&error=true');
    typeCode('123');
    fireEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(values()).toBe('');
    const status = screen.getByRole('status');
    await waitFor(() =>
      expect(status.textContent).toBe(
        'A new code was sent to n***@example.org. The previous code no longer works.',
      ),
    );
    expect(calls[0]?.method).toBe('POST');
    expect(JSON.parse(calls[0]?.body ?? '')).toEqual({ locale: 'en_US' });
    expect(calls[0]?.headers.get('Cache-Control')).toBe('no-cache');
    expect(screen.getByText('We sent a 6-digit code to n***@example.org.')).toBeTruthy();
    expect(errorRegion().textContent).toBe('');
  });

  it('goes to the sign-in screen when the resend fails', async () => {
    stubFetch({ [RESEND]: json({ code: 'stage.forbidden', message: 'no' }, 403) });
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() =>
      expect(window.location.pathname + window.location.search).toBe(
        '/sdportal/portalstatic/signin?cobrandHost=acme&locale=en_US',
      ),
    );
  });
});
