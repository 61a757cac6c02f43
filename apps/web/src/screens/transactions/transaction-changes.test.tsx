import type { IssuerCodeList, TransactionDetail, TransactionSummary } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { enterDate, makeContext, mockFetch, renderApp } from '../../test/support.tsx';

/** Split, dispute, export and the issuer's dispute reasons, screen by screen, against a mocked API. */

const summary: TransactionSummary = {
  id: 5,
  reference: 'DEMO-5',
  transactionDate: '2026-10-20',
  postingDate: '2026-10-21',
  merchantName: 'Hilton Garden Inn',
  merchantCity: 'Boston',
  merchantCountry: 'US',
  mcc: '3504',
  category: 'lodging',
  amount: { minor: '10000', currency: 'USD', exponent: 2 },
  tax: { minor: '1000', currency: 'USD', exponent: 2 },
  status: 'Reviewed',
  exported: false,
  split: false,
  disputed: false,
  account: { id: 7, maskedNumber: '542418******1234', cardholderName: 'Grace Hopper', alias: null },
};
const detail = (over: Partial<TransactionDetail> = {}): TransactionDetail => ({
  ...summary,
  companyNumber: '100001',
  companyName: 'Acme Industries',
  importedAt: '2026-10-21T10:00:00.000Z',
  steps: [],
  splits: [],
  canSplit: true,
  editBlocked: null,
  dispute: null,
  canDispute: true,
  ...over,
});
const usd = (minor: string) => ({ minor, currency: 'USD', exponent: 2 });
const reasons: IssuerCodeList = {
  list: 'dispute-reasons',
  rows: [
    { code: 'DP', description: 'Duplicate charge', systemStatus: null },
    { code: 'NR', description: 'Goods or services not received', systemStatus: null },
  ],
  canMaintain: true,
  max: 99,
};
const byId = (id: string) => document.getElementById(id) as HTMLElement;
const type = (id: string, value: string) => fireEvent.change(byId(id), { target: { value } });

describe('Split', () => {
  it('starts with two equal lines, shows what is left, refuses lines that do not total up, then saves', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/5' && call.method === 'GET') return { body: detail() };
      if (call.url === '/app/api/transactions/5/split')
        return {
          body: detail({
            split: true,
            splits: [
              { line: 1, amount: usd('7000'), tax: usd('700'), description: 'Room' },
              { line: 2, amount: usd('3000'), tax: usd('300'), description: 'Dinner' },
            ],
          }),
        };
      return undefined;
    });
    renderApp('/transactions/5', makeContext('A'));
    fireEvent.click(await screen.findByRole('button', { name: 'Split the transaction' }));
    expect((byId('split-line-0-amount') as HTMLInputElement).value).toBe('50.00');
    expect((byId('split-line-1-tax') as HTMLInputElement).value).toBe('5.00');
    expect(byId('transaction-split-left').textContent).toBe('Left to allocate: $0.00');
    type('split-line-0-amount', '70.00');
    await waitFor(() => expect(byId('transaction-split-left').textContent).toBe('Left to allocate: -$20.00'));
    fireEvent.click(byId('transaction-split-save'));
    expect(await screen.findByText('Split amount does not total up')).toBeDefined();
    expect(calls.some((c) => c.url.endsWith('/split'))).toBe(false);

    type('split-line-1-amount', '30.00');
    type('split-line-0-tax', '7.00');
    type('split-line-1-tax', '3.00');
    type('split-line-0-description', 'Room');
    type('split-line-1-description', 'Dinner');
    fireEvent.click(byId('transaction-split-save'));
    expect(await screen.findByText('The transaction has been split into 2 lines.')).toBeDefined();
    const sent = calls.find((c) => c.url.endsWith('/split'));
    expect(sent?.body).toEqual({
      lines: [
        { amount: '70.00', tax: '7.00', description: 'Room' },
        { amount: '30.00', tax: '3.00', description: 'Dinner' },
      ],
    });
    const table = await screen.findByRole('table', { name: 'Split into 2 lines' });
    expect(within(table).getByText('$70.00')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Unsplit' })).toBeDefined();
  });

  it('adds and removes lines by keyboard, shares equally, and shows a server refusal on its line', async () => {
    mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/5' && call.method === 'GET') return { body: detail() };
      if (call.url === '/app/api/transactions/5/split')
        return {
          status: 400,
          body: {
            code: 'money.amount.decimals',
            message: 'x',
            fieldErrors: { 'lines.2.amount': 'money.amount.decimals' },
          },
        };
      return undefined;
    });
    renderApp('/transactions/5', makeContext('C'));
    fireEvent.click(await screen.findByRole('button', { name: 'Split the transaction' }));
    fireEvent.click(byId('split-line-add'));
    await waitFor(() => expect(document.getElementById('split-line-2-amount')).not.toBeNull());
    fireEvent.click(byId('transaction-split-equal'));
    expect((byId('split-line-0-amount') as HTMLInputElement).value).toBe('33.34');
    expect((byId('split-line-2-amount') as HTMLInputElement).value).toBe('33.33');
    expect((byId('split-line-0-tax') as HTMLInputElement).value).toBe('3.34');
    fireEvent.click(byId('transaction-split-save'));
    await waitFor(() =>
      expect(byId('split-line-2-amount-error').textContent).toContain(
        'The amount has more decimals than its currency allows.',
      ),
    );
    fireEvent.click(byId('split-line-2-remove'));
    await waitFor(() => expect(document.getElementById('split-line-2-amount')).toBeNull());
    expect((byId('split-line-0-remove') as HTMLButtonElement).disabled).toBe(true);
  });

  it('asks before unsplitting, and says why a locked transaction cannot change', async () => {
    const split = detail({
      split: true,
      splits: [
        { line: 1, amount: usd('5000'), tax: usd('500'), description: '' },
        { line: 2, amount: usd('5000'), tax: usd('500'), description: '' },
      ],
    });
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/5' && call.method === 'GET') return { body: split };
      if (call.url === '/app/api/transactions/5/unsplit') return { body: detail() };
      if (call.url === '/app/api/transactions/6')
        return {
          body: detail({ id: 6, canSplit: false, editBlocked: 'transactions.edit.locked', status: 'Locked' }),
        };
      return undefined;
    });
    const { unmount } = renderApp('/transactions/5', makeContext('C'));
    fireEvent.click(await screen.findByRole('button', { name: 'Unsplit' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Unsplit the transaction?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unsplit' }));
    expect(await screen.findByText('The transaction is no longer split.')).toBeDefined();
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/unsplit'))).toBe(true);
    unmount();
    renderApp('/transactions/6', makeContext('C'));
    expect(await screen.findByText('Locked transactions cannot have purchase details edited.')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Split the transaction' })).toBeNull();
  });
});

describe('Dispute', () => {
  it('files a dispute from the issuer reasons and then shows it, unchangeable', async () => {
    const filed = detail({
      disputed: true,
      canDispute: false,
      dispute: {
        status: 'Submitted',
        reasonCode: 'DP',
        reasonDescription: 'Duplicate charge',
        amount: usd('10000'),
        explanation: 'Charged twice',
        submittedAt: '2026-11-24T10:00:00.000Z',
        submittedBy: 'active01',
      },
    });
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/5' && call.method === 'GET') return { body: detail() };
      if (call.url === '/app/api/transactions/5/dispute-reasons')
        return { body: { ...reasons, canMaintain: false } };
      if (call.url === '/app/api/transactions/5/dispute') return { body: filed };
      return undefined;
    });
    renderApp('/transactions/5', makeContext('A'));
    fireEvent.click(await screen.findByRole('button', { name: 'Dispute this transaction' }));
    expect(screen.getByText('A dispute cannot be changed after it has been submitted.')).toBeDefined();
    await screen.findByRole('option', { name: 'DP — Duplicate charge' });
    expect((byId('transaction-dispute-amount') as HTMLInputElement).value).toBe('100.00');
    fireEvent.click(byId('transaction-dispute-submit'));
    expect(await screen.findByText('Choose the reason for the dispute.')).toBeDefined();
    type('transaction-dispute-amount', '100.01');
    fireEvent.change(byId('transaction-dispute-reason'), { target: { value: 'DP' } });
    type('transaction-dispute-explanation', 'Charged twice');
    fireEvent.click(byId('transaction-dispute-submit'));
    expect(
      await screen.findByText("The amount disputed may not exceed the transaction's amount."),
    ).toBeDefined();
    type('transaction-dispute-amount', '100');
    fireEvent.click(byId('transaction-dispute-submit'));
    expect(await screen.findByText(/The dispute has been submitted/)).toBeDefined();
    expect(calls.find((c) => c.url.endsWith('/dispute'))?.body).toEqual({
      reason: 'DP',
      amount: '100',
      explanation: 'Charged twice',
    });
    expect(byId('transaction-dispute-status').textContent).toBe('Submitted');
    expect(screen.queryByRole('button', { name: 'Dispute this transaction' })).toBeNull();
  });
});

describe('General ledger export', () => {
  it('checks the range, exports, offers the file, and lists the exports', async () => {
    const made = {
      id: 3,
      companyNumber: '100001',
      companyName: 'Acme Industries',
      from: '2026-10-01',
      to: '2026-10-30',
      format: 'xlsx' as const,
      transactions: 42,
      rows: 44,
      createdAt: '2026-11-24T10:00:00.000Z',
      createdBy: 'admin01',
      fileName: 'gl-export-100001-2026-10-01-2026-10-30-3.xlsx',
    };
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/exports' && call.method === 'POST') return { body: made };
      if (call.url.startsWith('/app/api/transactions/exports'))
        return {
          body: {
            rows: calls.some((c) => c.method === 'POST') ? [made] : [],
            nextCursor: null,
            prevCursor: null,
          },
        };
      return undefined;
    });
    renderApp('/transactions/exports', makeContext('C'));
    expect(await screen.findByText('No exports yet.')).toBeDefined();
    expect(document.getElementById('transactions-export-company')).toBeNull();
    enterDate('transactions-export-from', '2026-10-01');
    enterDate('transactions-export-to', '2026-10-31');
    fireEvent.click(byId('transactions-export-submit'));
    expect(await screen.findByText('An export covers at most 30 days.')).toBeDefined();
    enterDate('transactions-export-to', '2026-10-30');
    fireEvent.click(byId('transactions-export-format-xlsx'));
    fireEvent.click(byId('transactions-export-submit'));
    expect(await screen.findByText('42 transactions exported.')).toBeDefined();
    const link = byId('transactions-export-download') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/app/api/transactions/exports/3/file');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      from: '2026-10-01',
      to: '2026-10-30',
      format: 'xlsx',
      again: false,
    });
    const table = await screen.findByRole('table', { name: 'Exports' });
    expect(within(table).getByText(made.fileName)).toBeDefined();
  });

  it('asks an issuer administrator for the company', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/transactions/exports')
        ? { body: { rows: [], nextCursor: null, prevCursor: null } }
        : undefined,
    );
    renderApp('/transactions/exports', makeContext('I'));
    expect(await screen.findByLabelText('Company number')).toBeDefined();
  });
});
