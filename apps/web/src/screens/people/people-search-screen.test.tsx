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
});
