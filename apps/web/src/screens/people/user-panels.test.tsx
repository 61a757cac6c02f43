import type { LinkMember, RoleSummary, UserLink, UserRoles } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadApp } from '../../api/session.ts';
import {
  type Call,
  makeContext,
  mockFetch,
  problemTextOf,
  renderApp,
  userDetail,
} from '../../test/support.tsx';

vi.mock('../../api/session.ts', async (original) => ({
  ...(await original<typeof import('../../api/session.ts')>()),
  reloadApp: vi.fn(),
}));

afterEach(() => {
  vi.mocked(reloadApp).mockClear();
  localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=; Max-Age=0; Path=/';
});

const role = (id: number, name: string, permissions: RoleSummary['permissions']): RoleSummary => ({
  id,
  issuerNumber: '1001',
  issuerName: 'Cardportal Demo Bank',
  name,
  description: '',
  permissions,
  active: true,
  holders: 1,
});
const ADMIN = role(1, 'Program administrator', ['peerUserModify', 'linkUsers', 'accessAsUser']);
const SUPER = role(2, 'Super user', ['accessAsUser']);

const member = (userId: string, confirmed: boolean): LinkMember => ({
  userId,
  firstName: 'Carl',
  lastName: 'Holder',
  userType: 'A',
  status: 'Active',
  companyNumber: '100001',
  companyName: 'Acme Industries',
  confirmed,
});

/** Answers the user view's calls; `extra` answers the rest. */
function serve(
  parts: { roles?: UserRoles; link?: UserLink },
  extra: (call: Call) => { status?: number; body?: unknown } | undefined = () => undefined,
) {
  return mockFetch((call) => {
    if (call.method === 'GET' && call.url === '/app/api/users/card01') return { body: userDetail() };
    if (call.method === 'GET' && call.url === '/app/api/users/card01/roles')
      return { body: parts.roles ?? { userId: 'card01', roles: [], assignable: [], mayChange: false } };
    if (call.method === 'GET' && call.url === '/app/api/users/card01/link')
      return { body: parts.link ?? { userId: 'card01', members: [], mayLink: false, mayUnlink: false } };
    return extra(call);
  });
}

const withCsrf = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=tok123; Path=/';
};

describe('user roles panel', () => {
  it('shows the held roles and lets an administrator give the roles it may give', async () => {
    withCsrf();
    const calls = serve(
      { roles: { userId: 'card01', roles: [], assignable: [ADMIN, SUPER], mayChange: true } },
      (call) =>
        call.method === 'PUT' && call.url === '/app/api/users/card01/roles'
          ? { body: { userId: 'card01', roles: [SUPER], assignable: [ADMIN, SUPER], mayChange: true } }
          : undefined,
    );
    renderApp('/people/card01');
    const panel = await screen.findByRole('region', { name: 'Roles' });
    expect(await within(panel).findByText('This user holds no roles.')).toBeDefined();
    const group = within(panel).getByRole('group', { name: 'Roles of user card01' });
    fireEvent.click(within(group).getByLabelText('Super user'));
    fireEvent.click(within(panel).getByRole('button', { name: 'Save roles' }));
    expect(await within(panel).findByText("The user's roles have been saved.")).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ roleIds: [2] });
    expect(within(panel).getByRole('list', { name: 'Roles held' }).textContent).toContain('Super user');
  });

  it('only lists the roles when the caller may not change them, and shows a refusal', async () => {
    serve({ roles: { userId: 'card01', roles: [ADMIN], assignable: [], mayChange: false } });
    renderApp('/people/card01');
    const panel = await screen.findByRole('region', { name: 'Roles' });
    expect((await within(panel).findByRole('list')).textContent).toContain('Program administrator');
    expect(within(panel).queryByRole('checkbox')).toBeNull();
  });

  it('keeps a held role the caller may not give fixed, and shows a refusal in the alert', async () => {
    withCsrf();
    serve({ roles: { userId: 'card01', roles: [ADMIN], assignable: [SUPER], mayChange: true } }, (call) =>
      call.method === 'PUT'
        ? {
            status: 409,
            body: { code: 'roles.userNotActive', message: 'Only active users may be given a role.' },
          }
        : undefined,
    );
    renderApp('/people/card01');
    const panel = await screen.findByRole('region', { name: 'Roles' });
    const fixed = (await within(panel).findByLabelText('Program administrator')) as HTMLInputElement;
    expect(fixed.checked).toBe(true);
    expect(fixed.disabled).toBe(true);
    fireEvent.click(within(panel).getByRole('button', { name: 'Save roles' }));
    const alert = document.getElementById('user-roles-error') as HTMLElement;
    await waitFor(() => expect(alert.textContent).toBe(problemTextOf('roles.userNotActive')));
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });
});

describe('user link panel', () => {
  it('shows the members with their confirmation and links another user ID, showing a refusal', async () => {
    withCsrf();
    const calls = serve(
      {
        link: {
          userId: 'card01',
          members: [member('card01', true), member('card02', false)],
          mayLink: true,
          mayUnlink: true,
        },
      },
      (call) =>
        call.method === 'POST' && call.url === '/app/api/multi-user/links'
          ? {
              status: 409,
              body: {
                code: 'multiUser.twoFactor',
                message: 'Two-factor users cannot be multi-users.',
                fieldErrors: { 'userIds.1': 'multiUser.twoFactor' },
              },
            }
          : undefined,
    );
    renderApp('/people/card01');
    const panel = await screen.findByRole('region', { name: 'Linked user IDs' });
    const table = await within(panel).findByRole('table', { name: 'User IDs linked with card01' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]?.textContent).toContain('Confirmed');
    expect(rows[2]?.textContent).toContain('Awaiting confirmation');

    fireEvent.click(within(panel).getByRole('button', { name: 'Link' }));
    await waitFor(() =>
      expect(within(panel).getByLabelText('User ID to link').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(panel).getByLabelText('User ID to link'), { target: { value: ' otp01 ' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Link' }));
    await waitFor(() =>
      expect(within(panel).getByRole('alert').textContent).toBe('Two-factor users cannot be multi-users.'),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ userIds: ['card01', 'otp01'] });
  });

  it('unlinks only after confirmation', async () => {
    withCsrf();
    const calls = serve(
      {
        link: {
          userId: 'card01',
          members: [member('card01', true), member('card02', true)],
          mayLink: false,
          mayUnlink: true,
        },
      },
      (call) =>
        call.method === 'DELETE' && call.url === '/app/api/users/card01/link'
          ? { body: { userId: 'card01', members: [], mayLink: true, mayUnlink: false } }
          : undefined,
    );
    renderApp('/people/card01');
    const panel = await screen.findByRole('region', { name: 'Linked user IDs' });
    expect(within(panel).queryByLabelText('User ID to link')).toBeNull();
    const unlink = await within(panel).findByRole('button', { name: 'Unlink' });
    fireEvent.click(unlink);
    expect(screen.getByText('Unlink user card01?')).toBeDefined();
    fireEvent.click(document.getElementById('user-unlink-confirm-cancel') as HTMLElement);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(unlink);
    fireEvent.click(document.getElementById('user-unlink-confirm-ok') as HTMLElement);
    expect(await within(panel).findByText('The user ID has been unlinked.')).toBeDefined();
    expect(within(panel).getByText('This user ID is not linked to other user IDs.')).toBeDefined();
    expect(within(panel).getByLabelText('User ID to link')).toBeDefined();
  });
});

describe('access as user', () => {
  it('is offered to a super user and loads the application again as the user', async () => {
    withCsrf();
    const calls = serve({}, (call) =>
      call.method === 'POST' && call.url === '/app/api/access-as' ? { body: { url: '/app/' } } : undefined,
    );
    renderApp('/people/card01', makeContext('C', { permissions: ['accessAsUser'] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Access as this user' }));
    await waitFor(() => expect(reloadApp).toHaveBeenCalledWith('/app/'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ userId: 'card01' });
  });

  it('shows the refusal', async () => {
    withCsrf();
    serve({}, (call) =>
      call.method === 'POST'
        ? { status: 403, body: { code: 'accessAs.optionOff', message: 'off' } }
        : undefined,
    );
    renderApp('/people/card01', makeContext('C', { permissions: ['accessAsUser'] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Access as this user' }));
    const alert = document.getElementById('user-access-as-error') as HTMLElement;
    await waitFor(() => expect(alert.textContent).toBe(problemTextOf('accessAs.optionOff')));
    expect(reloadApp).not.toHaveBeenCalled();
  });

  it.each([
    ['without the permission', makeContext('C'), 'A'],
    [
      'while accessing as someone',
      makeContext('C', {
        permissions: ['accessAsUser'],
        accessedBy: { userId: 'boss01', firstName: 'B', lastName: 'Oss' },
      }),
      'A',
    ],
    ['for a company group administrator', makeContext('I', { permissions: ['accessAsUser'] }), 'G'],
  ] as const)('is not offered %s', async (_label, context, type) => {
    mockFetch((call) =>
      call.method === 'GET' && call.url === '/app/api/users/card01'
        ? { body: userDetail({ userType: type }) }
        : undefined,
    );
    renderApp('/people/card01', context);
    expect(await screen.findByText('carl@example.com')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Access as this user' })).toBeNull();
  });
});
