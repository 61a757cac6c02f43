import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AUDIT_EVENTS, AUDIT_FIELDS, type AuditPage } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { enterDate, makeContext, mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

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
  nextCursor: 'cursor-1',
  prevCursor: null,
  totalIsLowerBound: false,
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
        ? {
            body: call.url.includes('after=cursor-1')
              ? page({ nextCursor: null, prevCursor: 'cursor-0' })
              : page(),
          }
        : undefined,
    );
    renderApp('/audit');
    expect(await screen.findByText('120 events from Oct 24, 2026 to Nov 22, 2026')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Audit trail' })).toBeDefined();
    const table = screen.getByRole('table', { name: 'Audit events' });
    expect(within(table).getByText('admin01')).toBeDefined();
    // In the reader's words: the event and the field by name, not by code.
    expect(within(table).getByText('Status: Active → Suspended')).toBeDefined();
    expect(within(table).getByText('Account status changed')).toBeDefined();
    expect(within(table).getByText(/· Account 542418\*{6}1234/)).toBeDefined();
    expect(within(table).queryByText(/account\.statusChanged/)).toBeNull();
    // The server's order, newest first, is announced on its column; only that column sorts.
    expect(within(table).getByRole('columnheader', { name: 'When' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(within(table).queryByRole('button', { name: 'Who' })).toBeNull();
    expect(within(table).getByRole('columnheader', { name: 'Who' }).hasAttribute('aria-sort')).toBe(false);
    const exportLink = screen.getByRole('link', { name: 'Export CSV' });
    expect(exportLink.getAttribute('href')).toBe('/app/api/audit/export?from=2026-10-24&to=2026-11-22');
    expect(exportLink.hasAttribute('download')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/app/api/audit?after=cursor-1')).toBe(true));
    expect(await screen.findByText('Page 2')).toBeDefined();
    expect((document.getElementById('audit-next') as HTMLButtonElement).disabled).toBe(true);
    // The header turns the order round: oldest first, from the first page (a cursor keeps to its order).
    fireEvent.click(
      within(screen.getByRole('table', { name: 'Audit events' })).getByRole('button', { name: 'When' }),
    );
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/app/api/audit?sort=at&dir=asc'));
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: 'When' }).getAttribute('aria-sort')).toBe('ascending'),
    );
    expect(screen.queryByText('Page 2')).toBeNull();
  });

  it('names every event and field the server records, values in words, an unknown event as it comes', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/audit')
        ? {
            body: page({
              rows: [
                {
                  id: 2,
                  at: '2026-11-20T11:00:00.000Z',
                  event: 'user.updated',
                  actor: 'admin01',
                  entity: 'user',
                  entityId: 'active01',
                  subject: 'active01',
                  changes: {
                    lastName: { before: 'Lovelace', after: 'King' },
                    userType: { before: 'A', after: 'C' },
                    active: { before: true, after: false },
                    email: { before: null, after: 'a@example.com' },
                  },
                  ip: null,
                },
                {
                  id: 3,
                  at: '2026-11-20T10:00:00.000Z',
                  event: 'future.event',
                  actor: null,
                  entity: null,
                  entityId: null,
                  subject: null,
                  changes: null,
                  ip: null,
                },
              ],
            }),
          }
        : undefined,
    );
    renderApp('/audit');
    const table = await screen.findByRole('table', { name: 'Audit events' });
    expect(within(table).getByText('User changed')).toBeDefined();
    expect(within(table).getByText('Last name: Lovelace → King')).toBeDefined();
    expect(within(table).getByText('User type: Cardholder → Company Program Administrator')).toBeDefined();
    expect(within(table).getByText('Active: Yes → No')).toBeDefined();
    expect(within(table).getByText('E-mail address: (none) → a@example.com')).toBeDefined();
    expect(within(table).getByText('future.event')).toBeDefined();
    expect(within(table).getByText('System')).toBeDefined();
    // Every event and field has its own text (not the key echoed back).
    const bundle = JSON.parse(
      readFileSync(
        path.resolve(import.meta.dirname, '../../../../../packages/i18n/bundles/en_US/PortalLabels.json'),
        'utf8',
      ),
    ) as Record<string, string>;
    for (const event of AUDIT_EVENTS) expect(bundle[`app.audit.event.${event}`], event).toBeTruthy();
    for (const field of AUDIT_FIELDS) expect(bundle[`app.audit.field.${field}`], field).toBeTruthy();
  });

  it('says "more than" when the count stopped at its cap', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/audit')
        ? { body: page({ total: 1000, totalIsLowerBound: true }) }
        : undefined,
    );
    renderApp('/audit');
    // The dates are the screen's date format; the count is capped, so "more than".
    expect(await screen.findByText(/^More than 1,000 events from .+ to .+$/)).toBeDefined();
  });

  it('hides and shows columns through the column menu; a row action filters by its actor', async () => {
    const calls = mockFetch((call) => (call.url.startsWith('/app/api/audit') ? { body: page() } : undefined));
    renderApp('/audit');
    const table = await screen.findByRole('table', { name: 'Audit events' });
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const menu = await screen.findByRole('menu', { name: 'Columns' });
    const changes = within(menu).getByRole('menuitemcheckbox', { name: 'Changes' });
    expect(changes.getAttribute('aria-checked')).toBe('true');
    // "When" names each row: it is not offered.
    expect(within(menu).queryByRole('menuitemcheckbox', { name: 'When' })).toBeNull();
    fireEvent.click(changes);
    await waitFor(() => expect(within(table).queryByRole('columnheader', { name: 'Changes' })).toBeNull());
    expect(within(table).queryByText('status: Active → Suspended')).toBeNull();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /^Actions for the event of / }));
    const actions = await screen.findByRole('menu');
    expect(within(actions).getByRole('menuitem', { name: 'Show events about active01' })).toBeDefined();
    fireEvent.click(within(actions).getByRole('menuitem', { name: 'Show events by admin01' }));
    await waitFor(() => expect(calls.at(-1)?.url).toBe('/app/api/audit?actor=admin01'));
    expect((screen.getByLabelText('Changed by (user ID)') as HTMLInputElement).value).toBe('admin01');
  });

  it('checks the dates (From not after To, at most 30 days) before asking, then sends every filter', async () => {
    const calls = mockFetch((call) => (call.url.startsWith('/app/api/audit') ? { body: page() } : undefined));
    renderApp('/audit');
    await screen.findByText('120 events from Oct 24, 2026 to Nov 22, 2026');
    const from = screen.getByRole('group', { name: 'From' });
    expect(from.id).toBe('audit-from');
    enterDate('audit-from', '2026-11-10');
    enterDate('audit-to', '2026-11-01');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText(problemTextOf('dateRange.fromAfterTo'))).toBeDefined();
    // The error is tied to the field, and focus is moved there.
    expect(from.getAttribute('aria-describedby')).toContain('audit-from-error');
    await waitFor(() => expect(from.contains(document.activeElement)).toBe(true));
    enterDate('audit-from', '2026-09-01');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText(problemTextOf('audit.rangeTooLong'))).toBeDefined();
    expect(calls.filter((c) => c.url.includes('from='))).toHaveLength(0);
    enterDate('audit-from', '2026-10-20');
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
