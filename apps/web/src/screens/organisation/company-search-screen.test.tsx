import type { CompanyList } from '@cardportal/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { companySummary, makeContext, mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

const list = (over: Partial<CompanyList> = {}): CompanyList => ({
  rows: Array.from({ length: 25 }, (_, i) =>
    companySummary({ number: String(100001 + i), name1: `Company ${i}` }),
  ),
  total: 60,
  nextCursor: 'cursor-1',
  prevCursor: null,
  pageCount: 3,
  pageSize: 25,
  ...over,
});

describe('Organisation: company search', () => {
  it('is in the navigation only for types that may view companies', () => {
    mockFetch(() => undefined);
    renderApp('/', makeContext('A'));
    expect(screen.queryByRole('link', { name: 'Organisation' })).toBeNull();
  });

  it('lists the companies in scope and pages by key', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/app/api/org/companies?')
        ? { body: call.url.includes('after=cursor-1') ? list({ prevCursor: 'cursor-0' }) : list() }
        : undefined,
    );
    renderApp('/organisation');
    expect(await screen.findByText('60 companies found')).toBeDefined();
    const table = screen.getByRole('table', { name: 'Companies found' });
    expect(table.querySelectorAll('tbody tr')).toHaveLength(25);
    expect(screen.getByRole('link', { name: '100001' }).getAttribute('href')).toBe('/organisation/100001');
    // A company administrator may not create companies.
    expect(screen.queryByRole('link', { name: 'Create company' })).toBeNull();

    expect(screen.getByText('Page 1 of 3')).toBeDefined();
    expect(screen.queryByLabelText('Go to page')).toBeNull();
    fireEvent.click(document.getElementById('company-next') as HTMLElement);
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/app/api/org/companies?after=cursor-1')).toBe(true),
    );
    expect(await screen.findByText('Page 2 of 3')).toBeDefined();
  });

  it('refuses criteria under 2 characters and offers Create company to an issuer administrator', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/app/api/org/companies?') ? { body: list() } : undefined,
    );
    renderApp('/organisation', makeContext('I'));
    expect(await screen.findByRole('link', { name: 'Create company' })).toBeDefined();
    fireEvent.change(screen.getByLabelText('Company name or number'), { target: { value: 'a' } });
    fireEvent.click(document.getElementById('company-search-submit') as HTMLElement);
    expect(await screen.findByText(problemTextOf('search.tooShort'))).toBeDefined();
    expect(calls.filter((c) => c.url.includes('q='))).toHaveLength(0);
  });

  it('shows the catalogue message when the result set is too large', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/org/companies?')
        ? { status: 400, body: { code: 'search.tooLarge', message: '' } }
        : undefined,
    );
    renderApp('/organisation');
    expect(
      await screen.findByText('Result set is too large; please refine your search criteria.'),
    ).toBeDefined();
  });
});
