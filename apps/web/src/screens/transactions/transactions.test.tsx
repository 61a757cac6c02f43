import type { SpendSummary, TransactionList, TransactionSummary } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeContext, mockFetch, renderApp } from '../../test/support.tsx';

export const tx = (over: Partial<TransactionSummary> = {}): TransactionSummary => ({
  id: 1,
  reference: 'DEMO-1-00001',
  transactionDate: '2026-11-20',
  postingDate: '2026-11-21',
  merchantName: 'Lufthansa',
  merchantCity: 'Frankfurt',
  merchantCountry: 'DE',
  mcc: '3008',
  category: 'airlines',
  amount: { minor: '41250', currency: 'EUR', exponent: 2 },
  tax: { minor: '0', currency: 'EUR', exponent: 2 },
  status: 'New',
  exported: false,
  split: false,
  disputed: false,
  account: { id: 7, maskedNumber: '542418******1234', cardholderName: 'Grace Hopper', alias: null },
  ...over,
});

const list = (over: Partial<TransactionList> = {}): TransactionList => ({
  rows: [
    tx(),
    tx({ id: 2, merchantName: 'Park Hyatt Tokyo', amount: { minor: '56000', currency: 'JPY', exponent: 0 } }),
    tx({
      id: 3,
      merchantName: 'Gulf Hotel',
      amount: { minor: '-48125', currency: 'BHD', exponent: 3 },
      status: 'Locked',
    }),
    // Past 2^53 minor units: shown to the last digit.
    tx({ id: 4, merchantName: 'Big', amount: { minor: '900719925474099123', currency: 'USD', exponent: 2 } }),
  ],
  nextCursor: 'next-1',
  prevCursor: null,
  total: 80,
  tooLarge: false,
  page: 1,
  pageCount: 4,
  pageSize: 25,
  ...over,
});

const spend: SpendSummary = {
  currencies: [
    { currency: 'USD', count: 90 },
    { currency: 'EUR', count: 4 },
  ],
  currency: 'USD',
  exponent: 2,
  from: '2026-06-01',
  to: '2026-11-25',
  byMonth: ['2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11'].map((month, i) => ({
    month,
    minor: String((i + 1) * 123_456),
    count: 10 + i,
  })),
  byCategory: [
    { category: 'airlines', minor: '1500000', count: 6 },
    { category: 'fuel', minor: '-2500', count: 2 },
  ],
};

describe('Transaction Summary', () => {
  it('lists the transactions with money in each currency’s decimals and the card masked', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/app/api/transactions?') || call.url === '/app/api/transactions'
        ? { body: list() }
        : undefined,
    );
    renderApp('/transactions', makeContext('C'));
    const table = await screen.findByRole('table', { name: 'Transactions' });
    expect(within(table).getByText('€412.50')).toBeDefined();
    expect(within(table).getByText('¥56,000')).toBeDefined();
    expect(within(table).getByText('-BHD 48.125')).toBeDefined();
    expect(within(table).getByText('$9,007,199,254,740,991.23')).toBeDefined();
    expect(within(table).getAllByText('542418******1234')).toHaveLength(4);
    expect(screen.getByText('80 transactions found')).toBeDefined();
    expect(calls.some((c) => c.url === '/app/api/transactions')).toBe(true);
  });

  it('sends the filters, shows a refused filter on its field, and jumps to a page', async () => {
    const calls = mockFetch((call) => {
      if (!call.url.startsWith('/app/api/transactions')) return undefined;
      if (call.url.includes('min=1.234'))
        return {
          status: 400,
          body: {
            code: 'money.amount.decimals',
            message: 'x',
            fieldErrors: { min: 'money.amount.decimals' },
          },
        };
      return { body: list() };
    });
    renderApp('/transactions', makeContext('C'));
    await screen.findByRole('table', { name: 'Transactions' });
    fireEvent.change(screen.getByLabelText('Currency (for an amount range)'), { target: { value: 'EUR' } });
    fireEvent.change(screen.getByLabelText('Amount from'), { target: { value: '1.234' } });
    fireEvent.click(document.getElementById('transactions-submit') as HTMLElement);
    await waitFor(() => expect(calls.some((c) => c.url.includes('currency=EUR&min=1.234'))).toBe(true));
    // On its field (and in the summary above the form).
    await waitFor(() =>
      expect(document.getElementById('transactions-min-error')?.textContent).toContain(
        'The amount has more decimals than its currency allows.',
      ),
    );

    fireEvent.change(screen.getByLabelText('Amount from'), { target: { value: '' } });
    fireEvent.click(document.getElementById('transactions-submit') as HTMLElement);
    await screen.findByRole('table', { name: 'Transactions' });
    fireEvent.change(screen.getByLabelText('Go to page (1 to 4)'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(calls.some((c) => /[?&]page=3/.test(c.url))).toBe(true));
  });

  it('says when the result is too large and offers no jump then', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/transactions')
        ? { body: list({ total: 10_000, tooLarge: true }) }
        : undefined,
    );
    renderApp('/transactions', makeContext('Z'));
    expect(await screen.findByText('More than 10,000 transactions')).toBeDefined();
    expect(screen.getByText('Result set is too large; please refine your search criteria.')).toBeDefined();
    expect(screen.queryByLabelText(/Go to page/)).toBeNull();
  });
});

describe('One transaction', () => {
  it('offers the steps the server allows and takes one', async () => {
    const detail = {
      ...tx({ id: 5, status: 'Reviewed' }),
      companyNumber: '100001',
      companyName: 'Acme Industries',
      importedAt: '2026-11-20T10:00:00.000Z',
      steps: ['approve'],
      splits: [],
      canSplit: false,
      editBlocked: null,
      dispute: null,
      canDispute: false,
    };
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/5' && call.method === 'GET') return { body: detail };
      if (call.url === '/app/api/transactions/5/approve' && call.method === 'POST')
        return { body: { ...detail, status: 'Approved', steps: [] } };
      return undefined;
    });
    renderApp('/transactions/5', makeContext('C'));
    const approve = await screen.findByRole('button', { name: 'Approve' });
    expect(screen.queryByRole('button', { name: 'Lock' })).toBeNull();
    expect(screen.getByText('Acme Industries (100001)')).toBeDefined();
    fireEvent.click(approve);
    expect(await screen.findByText('The transaction has been approved.')).toBeDefined();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/app/api/transactions/5/approve')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull());
    expect(document.getElementById('transaction-status')?.textContent).toBe('Approved');
  });
});

describe('Import a transaction file', () => {
  it('checks the file before sending, then shows what was imported', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url.startsWith('/app/api/transactions/import'))
        return {
          body: { rows: 3, imported: 2, duplicates: 1, rejected: 0, format: 'csv', ignored: ['terminal_id'] },
        };
      return undefined;
    });
    renderApp('/transactions/import', makeContext('I'));
    const input = (await screen.findByLabelText('Transaction file (.csv or .xml)')) as HTMLInputElement;
    expect(screen.queryByLabelText('Issuer number')).toBeNull();
    fireEvent.change(input, {
      target: { files: [new File(['x'], 'notes.pdf', { type: 'application/pdf' })] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Invalid or Unsupported File Format')).toBeDefined();
    expect(calls.some((c) => c.url.startsWith('/app/api/transactions/import'))).toBe(false);
    fireEvent.change(input, { target: { files: [new File(['a,b'], 'october.csv', { type: 'text/csv' })] } });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported: 2. Imported before, skipped: 1. Rows read: 3.')).toBeDefined();
    expect(screen.getByText('Columns ignored: terminal_id')).toBeDefined();
    expect(calls.some((c) => c.url === '/app/api/transactions/import?name=october.csv')).toBe(true);
  });

  it('lists the rows of a refused file', async () => {
    mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url.startsWith('/app/api/transactions/import'))
        return {
          status: 422,
          body: {
            code: 'upload.rows',
            message: 'The file has errors, so nothing was changed',
            rows: [{ row: 3, field: 'amount', problem: 'money.amount.decimals' }],
          },
        };
      return undefined;
    });
    renderApp('/transactions/import', makeContext('H'));
    const input = (await screen.findByLabelText('Transaction file (.csv or .xml)')) as HTMLInputElement;
    fireEvent.change(screen.getByLabelText('Issuer number'), { target: { value: '1001' } });
    fireEvent.change(input, { target: { files: [new File(['a,b'], 'bad.csv', { type: 'text/csv' })] } });
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    const report = await screen.findByRole('table', { name: 'Rows in error: nothing was imported' });
    expect(within(report).getByText('The amount has more decimals than its currency allows.')).toBeDefined();
  });
});

describe('Spend picture on the home page', () => {
  it('draws spend by month and by category, with the exact figures in tables behind', async () => {
    mockFetch((call) => (call.url.startsWith('/app/api/transactions/spend') ? { body: spend } : undefined));
    renderApp('/', makeContext('A'));
    const byMonth = await screen.findByRole('img', { name: 'Spend by month (USD)' });
    expect(byMonth.querySelectorAll('rect').length).toBe(6);
    expect(screen.getByRole('img', { name: 'Spend by category (USD)' })).toBeDefined();
    const months = screen.getByRole('table', { name: 'Spend by month (USD)' });
    expect(within(months).getAllByRole('row')).toHaveLength(7);
    expect(within(months).getByText('$7,407.36')).toBeDefined();
    const categories = screen.getByRole('table', { name: 'Spend by category (USD)' });
    expect(within(categories).getByText('Airlines')).toBeDefined();
    expect(within(categories).getByText('-$25.00')).toBeDefined();
    expect(screen.getByLabelText('Currency')).toBeDefined();
  });

  it('says so when nothing was spent', async () => {
    mockFetch((call) =>
      call.url.startsWith('/app/api/transactions/spend')
        ? { body: { ...spend, currencies: [], currency: null, byCategory: [] } }
        : undefined,
    );
    renderApp('/', makeContext('A'));
    expect(await screen.findByText('No spending in the last six months.')).toBeDefined();
  });
});
