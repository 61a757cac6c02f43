import type { UserSearchResult } from '@cardportal/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    userId: `card${String(i).padStart(2, '0')}`,
    firstName: 'Carl',
    lastName: `Holder ${i}`,
    email: `c${i}@example.com`,
    userType: 'A' as const,
    status: 'Active' as const,
    company: null,
  }));

const result = (over: Partial<UserSearchResult> = {}): UserSearchResult => ({
  rows: rows(25),
  total: 60,
  nextCursor: 'cursor-1',
  prevCursor: null,
  pageCount: 3,
  pageSize: 25,
  readOnly: false,
  ...over,
});

describe('People search', () => {
  it('refuses criteria under 2 characters before calling the server', async () => {
    const calls = mockFetch(() => undefined);
    renderApp('/people');
    fireEvent.change(await screen.findByLabelText('Name, user ID or e-mail'), { target: { value: ' x ' } });
    fireEvent.click(document.getElementById('people-search-submit') as HTMLElement);
    expect(await screen.findByText(problemTextOf('search.tooShort'))).toBeDefined();
    expect(calls.filter((c) => c.url.startsWith('/app/api/users'))).toHaveLength(0);
  });

  it('shows the results in a table and pages by key, forward and back', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/app/api/users?')
        ? {
            body: call.url.includes('after=cursor-1')
              ? result({ nextCursor: 'cursor-2', prevCursor: 'cursor-0' })
              : result(),
          }
        : undefined,
    );
    renderApp('/people?q=carl');
    expect(await screen.findByText('60 users found')).toBeDefined();
    const table = screen.getByRole('table', { name: 'Users found' });
    expect(table.querySelectorAll('tbody tr')).toHaveLength(25);
    expect(screen.getByRole('link', { name: 'card00' }).getAttribute('href')).toBe('/people/card00');
    expect(screen.getByText('Page 1 of 3')).toBeDefined();

    // No page jump: a keyset list seeks by key, never to page n (docs/paging.md).
    expect(screen.queryByLabelText('Go to page')).toBeNull();
    expect((document.getElementById('people-previous') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(document.getElementById('people-next') as HTMLElement);
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/app/api/users?q=carl&after=cursor-1')).toBe(true),
    );
    expect(await screen.findByText('Page 2 of 3')).toBeDefined();
    fireEvent.click(document.getElementById('people-previous') as HTMLElement);
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/app/api/users?q=carl&before=cursor-0')).toBe(true),
    );
    expect(await screen.findByText('Page 1 of 3')).toBeDefined();
  });

  it('shows the catalogue message when the result set is too large', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/users?')
        ? { status: 400, body: { code: 'search.tooLarge', message: 'too large' } }
        : undefined,
    );
    renderApp('/people?q=ca');
    expect(
      await screen.findByText('Result set is too large; please refine your search criteria.'),
    ).toBeDefined();
  });

  it('shows the read-only notice when the server marks the screen read-only', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/users?') ? { body: result({ readOnly: true }) } : undefined,
    );
    renderApp('/people?q=carl');
    expect(
      await screen.findByText('You are signed in as a system administrator: this page is read-only.'),
    ).toBeDefined();
  });

  it('exports the search as CSV and takes one action on the chosen users, saying what became of each', async () => {
    const calls = mockFetch((call) => {
      if (call.url.startsWith('/app/api/users?'))
        return { body: result({ rows: rows(3), total: 3, nextCursor: null, pageCount: 1 }) };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/users/bulk')
        return {
          body: {
            results: [
              { userId: 'card00', outcome: 'done', code: null },
              { userId: 'card01', outcome: 'unchanged', code: null },
              { userId: 'card02', outcome: 'refused', code: 'user.forbidden' },
            ],
          },
        };
      return undefined;
    });
    renderApp('/people?q=carl&status=Active');
    await screen.findByRole('table', { name: 'Users found' });
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/app/api/users.csv?q=carl&status=Active',
    );
    const all = screen.getByRole('checkbox', { name: 'Select all on this page' }) as HTMLInputElement;
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select card00' }));
    expect(all.indeterminate).toBe(true);
    expect(screen.getByText('1 user selected')).toBeDefined();
    fireEvent.click(all);
    expect(all.checked).toBe(true);
    expect(screen.getByText('3 users selected')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('alertdialog', { name: 'Deactivate 3 users?' })).toBeDefined();
    fireEvent.click(document.getElementById('people-bulk-confirm-ok') as HTMLElement);
    expect(await screen.findByText('Changed: 1. Already so: 1. Refused: 1.')).toBeDefined();
    expect(screen.getByText(`card02: ${problemTextOf('user.forbidden')}`)).toBeDefined();
    expect(calls.find((c) => c.url === '/app/api/users/bulk')?.body).toEqual({
      action: 'deactivate',
      userIds: ['card00', 'card01', 'card02'],
    });
    // The refused stay chosen, to try again or look at.
    expect(screen.getByText('1 user selected')).toBeDefined();
  });

  it('offers no selection to those who may not change users', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/users?')
        ? { body: result({ rows: rows(2), total: 2, readOnly: true }) }
        : undefined,
    );
    renderApp('/people?q=carl');
    await screen.findByRole('table', { name: 'Users found' });
    expect(screen.queryByRole('checkbox', { name: 'Select all on this page' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toBeDefined();
  });
});
