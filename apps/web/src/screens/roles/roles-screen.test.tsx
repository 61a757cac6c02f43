import type { RoleList, RoleSummary } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeContext, mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

afterEach(() => {
  localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=; Max-Age=0; Path=/';
});

function role(over: Partial<RoleSummary> = {}): RoleSummary {
  return {
    id: 1,
    issuerNumber: '1001',
    issuerName: 'Cardportal Demo Bank',
    name: 'Program administrator',
    description: 'Maintains the programme',
    permissions: ['peerUserModify', 'linkUsers', 'accessAsUser'],
    active: true,
    holders: 2,
    ...over,
  };
}

const roles = (
  mayDefine: boolean,
  list: RoleSummary[] = [
    role(),
    role({ id: 2, name: 'Super user', permissions: ['accessAsUser'], holders: 0 }),
  ],
): RoleList => ({ roles: list, mayDefine });

describe('roles screen', () => {
  it('lists the roles with translated permissions for a company administrator, without editing', async () => {
    mockFetch((call) => (call.url === '/app/api/roles' ? { body: roles(false) } : undefined));
    renderApp('/roles');
    const table = await screen.findByRole('table', { name: 'Roles of your issuers' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain('Program administrator');
    expect(rows[1]?.textContent).toContain('Cardportal Demo Bank (1001)');
    expect(rows[1]?.textContent).toContain('Modify users of the same type, Link user IDs, Access as user');
    expect(rows[2]?.textContent).toContain('Active');
    expect(screen.queryByRole('button', { name: 'Create role' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit role Super user' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Roles' })).toBeDefined();
  });

  it('lets an issuer administrator create a role, checking the name first and listing the new role', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: test fixture
    document.cookie = 'sec-token=tok123; Path=/';
    const created = role({
      id: 9,
      name: 'Approver delegate',
      permissions: ['linkUsers'],
      holders: 0,
      description: '',
    });
    let list = roles(true);
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/roles' && call.method === 'GET') return { body: list };
      if (call.url === '/app/api/roles' && call.method === 'POST') {
        list = roles(true, [...list.roles, created]);
        return { status: 201, body: created };
      }
      return undefined;
    });
    renderApp('/roles', makeContext('I'));
    fireEvent.click(await screen.findByRole('button', { name: 'Create role' }));
    expect(document.activeElement?.textContent).toBe('Create role');
    const group = screen.getByRole('group', { name: 'Permissions' });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Save role' }));
    expect(await screen.findByText(problemTextOf('role.name.required'))).toBeDefined();
    expect(screen.getByLabelText('Role name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Role name'));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText('Role name'), { target: { value: 'Approver delegate' } });
    fireEvent.click(within(group).getByLabelText('Link user IDs'));
    fireEvent.click(screen.getByRole('button', { name: 'Save role' }));
    expect(await screen.findByText('Role Approver delegate has been created.')).toBeDefined();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Approver delegate',
      description: '',
      permissions: ['linkUsers'],
    });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4));
    expect(screen.getByRole('button', { name: 'Edit role Approver delegate' })).toBeDefined();
  });

  it("maps the server's refusal onto the name field", async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: test fixture
    document.cookie = 'sec-token=tok123; Path=/';
    mockFetch((call) => {
      if (call.url === '/app/api/roles' && call.method === 'GET') return { body: roles(true) };
      if (call.method === 'POST')
        return {
          status: 409,
          body: { code: 'role.name.exists', message: 'exists', fieldErrors: { name: 'role.name.exists' } },
        };
      return undefined;
    });
    renderApp('/roles', makeContext('Z'));
    fireEvent.click(await screen.findByRole('button', { name: 'Create role' }));
    fireEvent.change(screen.getByLabelText('Issuer number'), { target: { value: '1001' } });
    fireEvent.change(screen.getByLabelText('Role name'), { target: { value: 'super user' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save role' }));
    const text = problemTextOf('role.name.exists');
    await waitFor(() => expect(screen.getAllByText(text, { exact: false }).length).toBeGreaterThan(0));
    expect(screen.getByLabelText('Role name').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement?.id).toBe('role-name'));
  });

  it('asks before deactivating a role and sends only the change', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: test fixture
    document.cookie = 'sec-token=tok123; Path=/';
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/roles' && call.method === 'GET') return { body: roles(true) };
      if (call.url === '/app/api/roles/2' && call.method === 'PATCH')
        return { body: role({ id: 2, name: 'Super user', permissions: ['accessAsUser'], active: false }) };
      return undefined;
    });
    renderApp('/roles', makeContext('I'));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit role Super user' }));
    expect((screen.getByLabelText('Role name') as HTMLInputElement).value).toBe('Super user');
    fireEvent.click(screen.getByLabelText('Active'));
    fireEvent.click(screen.getByRole('button', { name: 'Save role' }));
    expect(await screen.findByText('Deactivate role Super user?')).toBeDefined();
    fireEvent.click(document.getElementById('confirm-cancel') as HTMLElement);
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Save role' }));
    await screen.findByText('Deactivate role Super user?');
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText('Role Super user has been saved.')).toBeDefined();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ active: false });
  });

  it('is not offered to a level manager', () => {
    mockFetch(() => undefined);
    renderApp('/roles', makeContext('O'));
    expect(screen.queryByRole('link', { name: 'Roles' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Roles' })).toBeNull();
  });
});
