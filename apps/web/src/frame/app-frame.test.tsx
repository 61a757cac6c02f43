import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberRecent } from '../lib/recent.ts';
import { makeContext, mockFetch, problemTextOf, renderApp } from '../test/support.tsx';

afterEach(() => localStorage.clear());

describe('application frame', () => {
  it('has a skip link, landmarks, and the navigation a company administrator may use', async () => {
    mockFetch(() => undefined);
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome, Ada Admin');
    expect(screen.getByRole('link', { name: 'Skip to main content' }).getAttribute('href')).toBe('#main');
    expect(screen.getByRole('main')).toBeDefined();
    expect(screen.getByRole('banner')).toBeDefined();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Home',
      'People',
      'Organisation',
      'Transactions',
      'Approvals',
      'Roles',
      'Audit trail',
      'My Profile',
    ]);
    expect(screen.getByRole('link', { name: 'Create user' })).toBeDefined();
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeDefined();
  });

  it('shows a cardholder neither People nor the search box', () => {
    mockFetch(() => undefined);
    renderApp('/', makeContext('A'));
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect([...nav.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Home',
      'Transactions',
      'Expense reports',
      'Approvals',
      'My cards',
      'My Profile',
    ]);
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create user' })).toBeNull();
  });

  it('lets a level manager search but not create', () => {
    mockFetch(() => undefined);
    renderApp('/', makeContext('O'));
    expect(screen.getByRole('link', { name: 'People' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Create user' })).toBeNull();
  });

  it('lists the recently viewed items of this user only', () => {
    mockFetch(() => undefined);
    rememberRecent('admin01', { kind: 'user', id: 'card01', label: 'Carl Holder' });
    rememberRecent('someone', { kind: 'user', id: 'other9', label: 'Other' });
    renderApp('/');
    expect(screen.getByRole('link', { name: 'Carl Holder (card01)' })).toBeDefined();
    expect(screen.queryByText(/other9/)).toBeNull();
  });

  it('checks the global search with the domain rule and opens the People results on Enter', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/app/api/users?')
        ? { body: { rows: [], total: 0, page: 1, pageCount: 1, pageSize: 25, readOnly: false } }
        : undefined,
    );
    renderApp('/');
    const box = screen.getByRole('searchbox', { name: 'Search users' });
    fireEvent.change(box, { target: { value: 'a' } });
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    expect(await screen.findByText(problemTextOf('search.tooShort'))).toBeDefined();
    expect(calls.filter((c) => c.url.startsWith('/app/api/users'))).toHaveLength(0);
    fireEvent.change(box, { target: { value: 'carl' } });
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    expect(await screen.findByRole('heading', { level: 1, name: 'Search people' })).toBeDefined();
    await waitFor(() => expect(calls.some((c) => c.url === '/app/api/users?q=carl')).toBe(true));
    expect(await screen.findByText('No users match your search.')).toBeDefined();
    // focus moved to the new screen's heading
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Search people'));
  });

  it('says "not permitted" on a page the user’s type may not use, and "not found" on no page at all', async () => {
    mockFetch(() => undefined);
    renderApp('/issuers', makeContext('C'));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Not permitted');
    expect(screen.getByText(/does not give you access to this page/)).toBeDefined();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    expect(document.title).toContain('Not permitted');
  });

  it('says so on an address that is no page', async () => {
    mockFetch(() => undefined);
    renderApp('/no-such-page', makeContext('C'));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Page not found');
  });

  it('has a menu button that opens and folds the navigation (shown on small screens only)', () => {
    mockFetch(() => undefined);
    renderApp('/');
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(menu.getAttribute('aria-controls')).toBe('app-header-tools app-nav');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(document.querySelector('.app-frame')?.hasAttribute('data-menu-open')).toBe(true);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);
  });
});
