import type { Profile } from '@cardportal/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderApp } from '../../test/support.tsx';
import { pageReload, svgDataUrl } from './profile-screen.tsx';

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=tok123; Path=/';
});
afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=; Max-Age=0; Path=/';
  vi.restoreAllMocks();
});

const profile = (over: Partial<Profile> = {}): Profile => ({
  userId: 'active01',
  firstName: 'Avery',
  lastName: 'Active',
  email: 'avery@example.com',
  locale: 'en_US',
  locales: ['en_US', 'de', 'fr'],
  loginType: 'pwd',
  twoFactor: false,
  securityQuestionId: null,
  securityQuestionIds: ['q1', 'q2'],
  token: null,
  changePasswordUrl: '/sdportal/change-password?dest=MyProfile&cobrandHost=cardportal',
  ...over,
});

describe('My Profile', () => {
  it('shows the details and the change-password link, and switches the language with a reload', async () => {
    const reload = vi.spyOn(pageReload, 'run').mockImplementation(() => {});
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/profile' && call.method === 'GET') return { body: profile() };
      if (call.url === '/app/api/profile/language') return { body: profile({ locale: 'de' }) };
      return undefined;
    });
    renderApp('/profile');
    expect(await screen.findByText('avery@example.com')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Change password' }).getAttribute('href')).toBe(
      '/sdportal/change-password?dest=MyProfile&cobrandHost=cardportal',
    );
    const select = screen.getByLabelText('Language') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['en_US', 'de', 'fr']);
    fireEvent.change(select, { target: { value: 'de' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save language' }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ locale: 'de' });
  });

  it('checks the challenge answer with the domain rule and maps a wrong password onto its field', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/profile' && call.method === 'GET') return { body: profile() };
      if (call.url === '/app/api/profile/challenge-question')
        return {
          status: 403,
          body: {
            code: 'currentPassword.wrong',
            message: 'Wrong Password.',
            fieldErrors: { currentPassword: 'currentPassword.wrong' },
          },
        };
      return undefined;
    });
    renderApp('/profile');
    const question = (await screen.findByLabelText('Challenge question')) as HTMLSelectElement;
    expect(question.options[1]?.textContent).toBe('In what city were you born?');
    // Nothing chosen: the schema refuses before any request, on the field, and focus goes there.
    fireEvent.click(screen.getByRole('button', { name: 'Save challenge question' }));
    await waitFor(() => expect(question.getAttribute('aria-invalid')).toBe('true'));
    expect(question.getAttribute('aria-describedby')).toBe('question-questionId-error');
    expect(document.activeElement).toBe(question);
    fireEvent.change(question, { target: { value: 'q1' } });
    fireEvent.change(screen.getByLabelText('Answer'), { target: { value: 'Paris' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save challenge question' }));
    expect(await screen.findByText('Security answer must be at least 6 characters.')).toBeDefined();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(screen.getByLabelText('Answer'), { target: { value: 'Springfield' } });
    fireEvent.change(document.getElementById('question-currentPassword') as HTMLElement, {
      target: { value: 'bad' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save challenge question' }));
    expect(await screen.findByText('Wrong Password.')).toBeDefined();
    // The server's answer lands on the password field (not the form), which takes focus.
    const password = document.getElementById('question-currentPassword') as HTMLInputElement;
    expect(password.getAttribute('aria-describedby')).toBe('question-currentPassword-error');
    expect(document.activeElement).toBe(password);
    expect(document.getElementById('question-form-error')?.textContent).toBe('');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      questionId: 'q1',
      answer: 'Springfield',
      currentPassword: 'bad',
    });
  });

  it('turns two-factor sign-in on with the current password', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/profile' && call.method === 'GET') return { body: profile() };
      if (call.url === '/app/api/profile/two-factor')
        return { body: profile({ twoFactor: true, loginType: 'otp-2fa' }) };
      return undefined;
    });
    renderApp('/profile');
    expect(await screen.findByText('Two-factor sign-in is off.')).toBeDefined();
    fireEvent.change(document.getElementById('two-factor-currentPassword') as HTMLElement, {
      target: { value: 'Cardportal#2026' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Turn two-factor sign-in on' }));
    expect(await screen.findByText('Your two-factor setting has been saved.')).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      enabled: true,
      currentPassword: 'Cardportal#2026',
    });
    expect(screen.getByRole('button', { name: 'Turn two-factor sign-in off' })).toBeDefined();
    // The change's answer replaced the cached profile: no second read.
    expect(calls.filter((c) => c.url === '/app/api/profile')).toHaveLength(1);
    expect((document.getElementById('two-factor-currentPassword') as HTMLInputElement).value).toBe('');
  });

  it('gives token users the soft-token instructions and the QR code as an image, not markup', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/profile' && call.method === 'GET')
        return { body: profile({ loginType: 'token', token: { mode: 'soft' } }) };
      if (call.url === '/app/api/profile/soft-token')
        return {
          body: {
            uri: 'otpauth://totp/Cardportal:active01?secret=ABC',
            qrSvg: svg,
            defaultPin: '1234',
            defaultPinDays: 7,
          },
        };
      return undefined;
    });
    renderApp('/profile');
    expect(await screen.findByText('Install an authenticator app on your phone.')).toBeDefined();
    expect(screen.queryByText('Two-factor sign-in')).toBeNull();
    fireEvent.change(document.getElementById('soft-token-currentPassword') as HTMLElement, {
      target: { value: 'Cardportal#2026' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show QR code' }));
    const image = (await screen.findByRole('img', {
      name: 'QR code of your soft token, for scanning with an authenticator app',
    })) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe(svgDataUrl(svg));
    expect(image.getAttribute('src')?.startsWith('data:image/svg+xml;charset=utf-8,%3Csvg')).toBe(true);
    expect(document.querySelector('script')).toBeNull();
    expect(screen.getByText('otpauth://totp/Cardportal:active01?secret=ABC')).toBeDefined();
    expect(screen.getByText('1234')).toBeDefined();
    expect(screen.getByText('valid for 7 days')).toBeDefined();
    // A new token changes the profile's token state: it is read again.
    await waitFor(() => expect(calls.filter((c) => c.url === '/app/api/profile')).toHaveLength(2));
  });

  it('hides the two-factor form when the server says it is not available', async () => {
    mockFetch((call) => {
      if (call.url === '/app/api/profile' && call.method === 'GET') return { body: profile() };
      if (call.url === '/app/api/profile/two-factor')
        return { status: 409, body: { code: 'twoFactor.notAvailable', message: '' } };
      return undefined;
    });
    renderApp('/profile');
    fireEvent.change(
      await screen.findByLabelText('Current password', { selector: '#two-factor-currentPassword' }),
      {
        target: { value: 'x' },
      },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Turn two-factor sign-in on' }));
    expect(
      await screen.findByText('Two-factor sign-in is set by your token or single sign-on.'),
    ).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Turn two-factor sign-in on' })).toBeNull();
  });
});
