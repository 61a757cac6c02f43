import type { AuditPage } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeContext, mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

const page = (over: Partial<AuditPage> = {}): AuditPage => ({
  rows: [
    {
      id: 1,
      at: '2026-11-20T10:00:00.000Z',
      event: 'account.statusChanged',
      actor: 'admin01',
      entity: 'account',
      entityId: '542418******1234',
      subject: 'active01',
      changes: { status: { before: 'Active', after: 'Suspended' } },
      ip: '127.0.0.1',
    },
  ],
  total: 120,
  page: 1,
  pageCount: 3,
  pageSize: 50,
  from: '2026-10-24',
  to: '2026-11-22',
  ...over,
});

describe('Audit trail', () => {
  it('is in the navigation of administrators only', async () => {
    mockFetch(() => undefined);
    renderApp('/', makeContext('O'));
    expect(screen.queryByRole('link', { name: 'Audit trail' })).toBeNull();
  });

  it('shows who, what, when and the changes, pages, and exports the same filters as CSV', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/app/api/audit')
        ? { body: page({ page: call.url.includes('page=2') ? 2 : 1 }) }
        : undefined,
    );
    renderApp('/audit');
    expect(await screen.findByText('120 events from 2026-10-24 to 2026-11-22')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Audit trail' })).toBeDefined();
    const table = screen.getByRole('table', { name: 'Audit events' });
    expect(within(table).getByText('admin01')).toBeDefined();
    expect(within(table).getByText('status: Active → Suspended')).toBeDefined();
    expect(within(table).getByText(/account\.statusChanged · Account 542418\*{6}1234/)).toBeDefined();
    const exportLink = screen.getByRole('link', { name: 'Export CSV' });
    expect(exportLink.getAttribute('href')).toBe('/app/api/audit/export?from=2026-10-24&to=2026-11-22');
    expect(exportLink.hasAttribute('download')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/app/api/audit?page=2')).toBe(true));
  });

  it('checks the dates (From not after To, at most 30 days) before asking, then sends every filter', async () => {
    const calls = mockFetch((call) => (call.url.startsWith('/app/api/audit') ? { body: page() } : undefined));
    renderApp('/audit');
    await screen.findByText('120 events from 2026-10-24 to 2026-11-22');
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    fireEvent.change(from, { target: { value: '2026-11-10' } });
    fireEvent.change(to, { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText(problemTextOf('dateRange.fromAfterTo'))).toBeDefined();
    fireEvent.change(from, { target: { value: '2026-09-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText(problemTextOf('audit.rangeTooLong'))).toBeDefined();
    expect(calls.filter((c) => c.url.includes('from='))).toHaveLength(0);
    fireEvent.change(from, { target: { value: '2026-10-20' } });
    fireEvent.change(screen.getByLabelText('Changed by (user ID)'), { target: { value: 'admin01' } });
    fireEvent.change(screen.getByLabelText('User concerned (user ID)'), { target: { value: 'active01' } });
    fireEvent.change(screen.getByLabelText('Record type'), { target: { value: 'account' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() =>
      expect(calls.at(-1)?.url).toBe(
        '/app/api/audit?from=2026-10-20&to=2026-11-01&actor=admin01&user=active01&entity=account',
      ),
    );
  });

  it('shows the server refusal', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/audit')
        ? { status: 400, body: { code: 'audit.rangeTooLong', message: '' } }
        : undefined,
    );
    renderApp('/audit?from=2026-01-01&to=2026-03-01');
    expect(await screen.findByText(problemTextOf('audit.rangeTooLong'))).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Export CSV' })).toBeNull();
  });
});
