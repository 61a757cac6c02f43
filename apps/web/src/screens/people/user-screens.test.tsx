import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecent } from '../../lib/recent.ts';
import { makeContext, mockFetch, problemTextOf, renderApp, userDetail } from '../../test/support.tsx';

afterEach(() => {
  localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=; Max-Age=0; Path=/';
});

describe('user view', () => {
  it('shows the user, remembers it as recently viewed, and deactivates only after confirmation', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: test fixture
    document.cookie = 'sec-token=tok123; Path=/';
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/users/card01' && call.method === 'GET') return { body: userDetail() };
      if (call.url === '/app/api/users/card01/status' && call.method === 'PUT')
        return {
          body: userDetail({
            status: 'Inactive',
            allowed: { modify: true, deactivate: false, reactivate: true, unlock: false },
          }),
        };
      return undefined;
    });
    renderApp('/people/card01');
    expect(await screen.findByText('carl@example.com')).toBeDefined();
    expect(readRecent('admin01')).toEqual([{ kind: 'user', id: 'card01', label: 'Carl Holder' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    expect(screen.getByText('Deactivate user card01?')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel', hidden: true }));
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText('The user has been deactivated.')).toBeDefined();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({ status: 'Inactive' });
    expect(put?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    expect(put?.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(screen.getByRole('button', { name: 'Reactivate' })).toBeDefined();
  });

  it("shows an SSO user's identity provider and subject, and says when none is linked (docs/sso.md)", async () => {
    let linked = true;
    mockFetch((call) =>
      call.url === '/app/api/users/card01'
        ? {
            body: userDetail({
              singleSignOn: linked
                ? { provider: 'Acme directory', subject: 'sam.single' }
                : { provider: null, subject: null },
            }),
          }
        : undefined,
    );
    const view = renderApp('/people/card01');
    expect(await screen.findByText('Acme directory (sam.single)')).toBeDefined();
    expect(screen.getByText('Single sign-on')).toBeDefined();
    view.unmount();
    linked = false;
    renderApp('/people/card01');
    expect(await screen.findByText('SSO user, not linked to an identity provider')).toBeDefined();
  });

  it('says when the user cannot be found', async () => {
    mockFetch(() => ({ status: 404, body: { code: 'user.notFound', message: '' } }));
    renderApp('/people/nobody');
    expect(await screen.findByText(problemTextOf('user.notFound'))).toBeDefined();
  });
});

describe('edit user, not permitted', () => {
  it('shows a system administrator why it may not edit a tenant user, instead of a form it cannot save', async () => {
    const calls = mockFetch((call) =>
      call.url === '/app/api/users/card01'
        ? {
            body: userDetail({
              readOnly: true,
              allowed: { modify: false, deactivate: false, reactivate: false, unlock: false },
              assignableTypes: [],
            }),
          }
        : undefined,
    );
    renderApp('/people/card01/edit', makeContext('Z'));
    expect(
      await screen.findByText(
        'You are signed in as a system administrator: you may see user card01 but not change it.',
      ),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Back to user card01' }).getAttribute('href')).toBe(
      '/people/card01',
    );
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByLabelText('User type')).toBeNull();
    expect(calls.every((c) => c.method === 'GET')).toBe(true);
  });
});

describe('create user', () => {
  it('offers only the types the caller may create, and checks fields with the domain rules', async () => {
    const calls = mockFetch(() => undefined);
    renderApp('/people/new');
    const type = (await screen.findByLabelText('User type')) as HTMLSelectElement;
    expect([...type.options].map((o) => o.value)).toEqual(['O', 'S', 'A']);
    fireEvent.change(screen.getByLabelText('User ID'), { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(problemTextOf('userId.tooShort'))).toBeDefined();
    const userId = screen.getByLabelText('User ID');
    expect(userId.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(userId);
    expect(calls.filter((c) => c.url.startsWith('/app/api/users'))).toHaveLength(0);
  });

  it("maps the server's field errors onto the fields", async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: test fixture
    document.cookie = 'sec-token=tok123; Path=/';
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? {
            status: 409,
            body: { code: 'userId.exists', message: 'exists', fieldErrors: { userId: 'userId.exists' } },
          }
        : undefined,
    );
    renderApp('/people/new');
    fireEvent.change(await screen.findByLabelText('User ID'), { target: { value: 'card01x' } });
    fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Carl' } });
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Holder' } });
    fireEvent.change(screen.getByLabelText('E-mail address'), { target: { value: 'carl@example.com' } });
    fireEvent.change(screen.getByLabelText('Confirm e-mail address'), {
      target: { value: 'carl@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      userId: 'card01x',
      firstName: 'Carl',
      lastName: 'Holder',
      email: 'carl@example.com',
      emailConfirm: 'carl@example.com',
      userType: 'A',
      locale: 'en_US',
    });
    const message = 'The User ID you specified already exists in the application. Please try again.';
    await waitFor(() => expect(screen.getAllByText(message, { exact: false }).length).toBeGreaterThan(0));
    expect(screen.getByLabelText('User ID').getAttribute('aria-invalid')).toBe('true');
  });
});
