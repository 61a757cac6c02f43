import type { ExpenseReportDetail, ExpenseTransactionList } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeContext, mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

const usd = (minor: string) => ({ minor, currency: 'USD', exponent: 2 });
const REPORT = '/app/api/expense-reports/12';

const report = (over: Partial<ExpenseReportDetail> = {}): ExpenseReportDetail => ({
  id: 12,
  name: 'Chicago trade fair',
  status: 'Saved',
  total: usd('0'),
  lines: [],
  flagged: 0,
  owner: { userId: 'active01', name: 'Grace Hopper' },
  companyNumber: '100001',
  submittedAt: null,
  updatedAt: '2026-11-29T08:00:00.000Z',
  pending: null,
  unroutable: false,
  history: [],
  may: { edit: true, submit: false, approve: false, sendBack: false, reroute: false },
  choices: {
    types: [
      {
        id: 1,
        name: 'Meals',
        category: 'general',
        properties: [{ label: 'Attendees', kind: 'text', required: true }],
      },
      { id: 2, name: 'Ground transport', category: 'general', properties: [] },
      { id: 3, name: 'Mileage', category: 'mileage', properties: [] },
    ],
    mileageRates: [{ id: 5, name: 'Private car', unit: 'mi', rate: '0.7' }],
    taxRates: [{ id: 6, name: 'Sales tax', rate: '8.875' }],
  },
  policy: { currency: 'USD', descriptionMaxLength: 20, workflowInstructions: 'Attach receipts above $25.' },
  ...over,
});

const transactions: ExpenseTransactionList = {
  rows: [
    {
      id: 101,
      reference: 'R1',
      transactionDate: '2026-10-01',
      merchantName: 'Blue Diner',
      amount: usd('4200'),
      maskedNumber: '411111******1111',
    },
    {
      id: 102,
      reference: 'R2',
      transactionDate: '2026-10-02',
      merchantName: 'City Cabs',
      amount: usd('1850'),
      maskedNumber: '411111******1111',
    },
  ],
  nextCursor: null,
  prevCursor: null,
};

const line = (id: number, over: Partial<ExpenseReportDetail['lines'][number]> = {}) => ({
  id,
  kind: 'card' as const,
  type: { id: 2, name: 'Ground transport' },
  date: '2026-10-02',
  description: 'Taxi',
  amount: usd('1850'),
  tax: null,
  taxRateId: null,
  transaction: { id: 102, reference: 'R2', merchantName: 'City Cabs', maskedNumber: '411111******1111' },
  mileage: null,
  properties: {},
  receipt: null,
  flags: [] as ('overLimit' | 'receiptMissing')[],
  ...over,
});

describe('Expense report editor', () => {
  it('adds two card transactions as rows of one form, checks descriptions and odometers first, then submits', async () => {
    let current = report();
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === REPORT && call.method === 'GET') return { body: current };
      if (call.url.startsWith('/app/api/my/expense-transactions')) return { body: transactions };
      if (call.url === `${REPORT}/lines` && call.method === 'POST') {
        const body = call.body as {
          transactionId?: number;
          description: string;
          properties: Record<string, string>;
        };
        if (body.transactionId === 101 && !body.properties.Attendees)
          return {
            status: 400,
            body: {
              code: 'form.invalid',
              message: '',
              fieldErrors: { 'properties.Attendees': 'expenseLine.property.required' },
            },
          };
        current = report({
          lines: [...current.lines, line(current.lines.length + 1, { description: body.description })],
          total: usd(String(1850 * (current.lines.length + 1))),
          may: { ...current.may, submit: true },
        });
        return { status: 201, body: current };
      }
      if (call.url === `${REPORT}/submit`) {
        current = report({
          ...current,
          status: 'Submitted',
          may: { ...current.may, edit: false, submit: false },
          choices: null,
        });
        return { body: current };
      }
      return undefined;
    });
    renderApp('/expense-reports/12', makeContext('A', { userId: 'active01' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Chicago trade fair' })).toBeDefined();
    expect(screen.getByText('Attach receipts above $25.')).toBeDefined();

    const form = document.getElementById('card-lines-form') as HTMLFormElement;
    const first = await within(form).findByLabelText('Transaction 1');
    await waitFor(() => expect(within(first as HTMLSelectElement).getAllByRole('option')).toHaveLength(3));
    fireEvent.change(first, { target: { value: '101' } });
    fireEvent.change(within(form).getByLabelText('Expense type of transaction 1'), {
      target: { value: '1' },
    });
    fireEvent.change(within(form).getByLabelText(/Description of transaction 1/), {
      target: { value: 'A description far too long for the policy' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add another transaction' }));
    const second = await within(form).findByLabelText('Transaction 2');
    await waitFor(() => expect(document.activeElement).toBe(second));
    fireEvent.change(second, { target: { value: '102' } });
    fireEvent.change(within(form).getByLabelText('Expense type of transaction 2'), {
      target: { value: '2' },
    });
    fireEvent.change(within(form).getByLabelText(/Description of transaction 2/), {
      target: { value: 'Taxi' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add to the report' }));
    expect(await within(form).findByText(problemTextOf('expenseLine.description.tooLong'))).toBeDefined();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(form).getByLabelText(/Description of transaction 1/), {
      target: { value: 'Client lunch' },
    });
    fireEvent.change(within(form).getByLabelText(/Attendees/), { target: { value: '3' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add to the report' }));
    expect(await screen.findByText('Changes saved.')).toBeDefined();
    const posted = calls.filter((c) => c.method === 'POST' && c.url === `${REPORT}/lines`).map((c) => c.body);
    expect(posted).toEqual([
      {
        kind: 'card',
        transactionId: 101,
        typeId: 1,
        description: 'Client lunch',
        properties: { Attendees: '3' },
      },
      { kind: 'card', transactionId: 102, typeId: 2, description: 'Taxi', properties: {} },
    ]);
    const table = await screen.findByRole('table', { name: 'Lines of Chicago trade fair' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);

    // A journey: the odometer is checked before anything is sent.
    const other = document.getElementById('line-new-form') as HTMLFormElement;
    fireEvent.click(within(other).getByLabelText('Journey'));
    fireEvent.change(within(other).getByLabelText('Odometer at the start', { selector: 'input' }), {
      target: { value: '1350' },
    });
    fireEvent.change(within(other).getByLabelText('Odometer at the end', { selector: 'input' }), {
      target: { value: '1200' },
    });
    fireEvent.click(within(other).getByRole('button', { name: 'Add line' }));
    expect(await within(other).findByText(problemTextOf('expenseLine.odometer.order'))).toBeDefined();

    fireEvent.click(screen.getByRole('button', { name: 'Submit for approval' }));
    expect(await screen.findByText('The report was submitted.')).toBeDefined();
    expect(document.getElementById('report-status')?.textContent).toBe('Submitted for approval');
    await waitFor(() => expect(document.activeElement?.id).toBe('report-heading'));
    expect(screen.queryByRole('button', { name: 'Submit for approval' })).toBeNull();
  });

  it('shows an approver the flags and the route, and sends back only with a reason', async () => {
    let current = report({
      status: 'Submitted',
      total: usd('8000'),
      lines: [
        line(1, {
          kind: 'cash',
          transaction: null,
          description: 'Team dinner',
          amount: usd('8000'),
          flags: ['overLimit', 'receiptMissing'],
        }),
      ],
      flagged: 1,
      pending: { step: 'level:10', approvers: [{ userId: 'lvlmgr01', name: 'Linus Manager' }], needed: 1 },
      may: { edit: false, submit: false, approve: true, sendBack: true, reroute: false },
      choices: null,
    });
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === REPORT && call.method === 'GET') return { body: current };
      if (call.url === `${REPORT}/send-back`) {
        current = {
          ...current,
          status: 'SentBack',
          pending: null,
          may: { ...current.may, approve: false, sendBack: false },
        };
        return { body: current };
      }
      return undefined;
    });
    renderApp('/expense-reports/12', makeContext('O', { userId: 'lvlmgr01' }));
    const table = await screen.findByRole('table', { name: 'Lines of Chicago trade fair' });
    expect(within(table).getByText('Over the limit for its type, Receipt required')).toBeDefined();
    expect(screen.getByText('Linus Manager (approvals still needed: 1)')).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Add card transactions' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeDefined();

    fireEvent.click(screen.getByRole('button', { name: 'Send back' }));
    expect(await screen.findByText(problemTextOf('expenseReport.note.required'))).toBeDefined();
    expect(calls.some((c) => c.url.endsWith('/send-back'))).toBe(false);
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'Attach the receipt' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send back' }));
    expect(await screen.findByText('The report was sent back.')).toBeDefined();
    expect(calls.find((c) => c.url.endsWith('/send-back'))?.body).toEqual({ note: 'Attach the receipt' });
    expect(document.getElementById('report-status')?.textContent).toBe('Sent back');
  });
});
