import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../routes.tsx';
import { makeContext, mockFetch } from '../../test/support.tsx';

/** Answers calls by `METHOD url`; anything else 404. */
const fakeApi = (answers: Record<string, { status: number; body?: unknown }>) => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=tok123; Path=/';
  return mockFetch((call) => answers[`${call.method} ${call.url}`]);
};

const member = (userId: string, userType: 'A' | 'O' | 'C' = 'A') => ({
  userId,
  firstName: 'Max',
  lastName: 'Multi',
  userType,
  status: 'Active' as const,
  companyNumber: '100001',
  companyName: 'Acme Industries',
  confirmed: true,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('multi-user after sign-in', () => {
  it('asks a member to confirm its link, and posts the answer', async () => {
    const calls = fakeApi({ 'POST /app/api/multi-user/confirm': { status: 204 } });
    // The page leaves for the application's home: spied on, so happy-dom does not navigate.
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const context = makeContext('A', {
      userId: 'multi01',
      multiUser: { confirm: [member('multi02', 'O')], choices: [] },
    });
    render(<AppRoutes context={context} languageTag="en-US" initialPath="/" />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Confirm your linked user IDs' }),
    ).toBeTruthy();
    expect(screen.getByText('multi02 (Level Manager) — Acme Industries')).toBeTruthy();
    // The application itself is not shown until the link is answered.
    expect(screen.queryByRole('navigation')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm link' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/app/'));
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/app/api/multi-user/confirm',
      body: { accept: true, userIds: ['multi02'] },
    });
  });

  it('lets a confirmed member choose the ID to work as, and shows a refusal', async () => {
    const calls = fakeApi({
      'POST /app/api/multi-user/choose': {
        status: 409,
        body: {
          code: 'multiUser.choice.signInFirst',
          message: 'Sign in with that user ID first to change its password.',
        },
      },
    });
    const context = makeContext('O', {
      userId: 'multi02',
      multiUser: { confirm: null, choices: [member('multi02', 'O'), member('multi01')] },
    });
    render(<AppRoutes context={context} languageTag="en-US" initialPath="/" />);
    const group = await screen.findByRole('group', { name: 'Work in this session as' });
    expect(group).toBeTruthy();
    const first = screen.getByRole('radio', {
      name: 'multi02 (Level Manager) — Acme Industries',
    }) as HTMLInputElement;
    expect(first.checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'multi01 (Cardholder) — Acme Industries' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Sign in with that user ID first to change its password.');
    expect(calls.at(-1)).toMatchObject({ url: '/app/api/multi-user/choose', body: { userId: 'multi01' } });
  });

  it('goes straight to the application without a link', () => {
    fakeApi({});
    render(<AppRoutes context={makeContext('A')} languageTag="en-US" initialPath="/" />);
    expect(screen.getByRole('navigation')).toBeTruthy();
    expect(screen.queryByText('Choose your user ID')).toBeNull();
  });
});

describe('access as user', () => {
  it('shows who is really working on every screen and returns to the original session', async () => {
    const calls = fakeApi({ 'POST /app/api/access-as/return': { status: 200, body: { url: '/app/' } } });
    // The page leaves for the application's home: spied on, so happy-dom does not navigate.
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const context = makeContext('A', {
      userId: 'active01',
      firstName: 'Ada',
      lastName: 'Active',
      accessedBy: { userId: 'admin01', firstName: 'Carl', lastName: 'Admin' },
    });
    render(<AppRoutes context={context} languageTag="en-US" initialPath="/" />);
    const banner = screen.getByRole('region', { name: 'Access as user' });
    expect(banner.textContent).toContain(
      'You are working as Ada Active (active01). Signed in as Carl Admin (admin01).',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Return to my session' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/app/'));
    expect(calls.at(-1)).toMatchObject({ method: 'POST', url: '/app/api/access-as/return' });
  });

  it('shows no banner in an ordinary session', () => {
    fakeApi({});
    render(<AppRoutes context={makeContext('C')} languageTag="en-US" initialPath="/" />);
    expect(screen.queryByRole('region', { name: 'Access as user' })).toBeNull();
  });
});
