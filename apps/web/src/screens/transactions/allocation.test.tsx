import type { TransactionAllocation, TransactionDetail } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeContext, mockFetch, renderApp } from '../../test/support.tsx';

/** A transaction's coding panel (issue 16 item 3) against a mocked API. */

const usd = (minor: string) => ({ minor, currency: 'USD', exponent: 2 });
const detail: TransactionDetail = {
  id: 5,
  reference: 'DEMO-5',
  transactionDate: '2026-10-20',
  postingDate: '2026-10-21',
  merchantName: 'Hilton Garden Inn',
  merchantCity: 'Boston',
  merchantCountry: 'US',
  mcc: '3504',
  category: 'lodging',
  amount: usd('10001'),
  tax: usd('0'),
  status: 'Reviewed',
  exported: false,
  split: false,
  disputed: false,
  account: { id: 7, maskedNumber: '542418******1234', cardholderName: 'Grace Hopper', alias: null },
  companyNumber: '100001',
  companyName: 'Acme Industries',
  importedAt: '2026-10-21T10:00:00.000Z',
  steps: [],
  splits: [],
  canSplit: false,
  editBlocked: null,
  dispute: null,
  canDispute: false,
};
const allocation = (over: Partial<TransactionAllocation> = {}): TransactionAllocation => ({
  transactionId: 5,
  scheme: { id: 1, name: 'Travel' },
  codes: [
    {
      id: 1,
      name: 'Cost centre',
      kind: 'list',
      entry: 'list',
      required: true,
      override: 'cardholder',
      mayEdit: true,
      dependsOn: null,
      maxLength: 25,
    },
    {
      id: 2,
      name: 'GL account',
      kind: 'list',
      entry: 'list',
      required: true,
      override: 'manager',
      mayEdit: false,
      dependsOn: null,
      maxLength: 25,
    },
  ],
  parts: [
    {
      splitLine: 0,
      amount: usd('10001'),
      description: '',
      source: 'default',
      batchId: null,
      lines: [
        {
          amount: usd('10001'),
          percent: 100,
          coding: { 1: { value: '4100', description: 'Sales' }, 2: { value: '6100', description: 'Travel' } },
        },
      ],
    },
  ],
  canEdit: true,
  blocked: null,
  ...over,
});
const byId = (id: string) => document.getElementById(id) as HTMLElement;

describe('Coding panel', () => {
  it('shows the default coding, then allocates by percent: the total checked first, the fixed code kept', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/5' && call.method === 'GET') return { body: detail };
      if (call.url.startsWith('/app/api/transactions/5/allocation/values'))
        return {
          body: {
            rows: [
              { id: 1, value: '4100', description: 'Sales' },
              { id: 2, value: '4200', description: 'Operations' },
            ],
            more: false,
          },
        };
      if (call.url === '/app/api/transactions/5/allocation' && call.method === 'GET')
        return { body: allocation() };
      if (call.url === '/app/api/transactions/5/allocation' && call.method === 'PUT')
        return {
          body: allocation({
            parts: [
              { ...(allocation().parts[0] as TransactionAllocation['parts'][number]), source: 'allocation' },
            ],
          }),
        };
      return undefined;
    });
    renderApp('/transactions/5', makeContext('A'));
    const table = await screen.findByRole('table', { name: /Coding of \$100\.01/ });
    expect(within(table).getByText('4100 – Sales')).toBeDefined();
    expect(table.textContent).toContain("the card's default coding");
    fireEvent.click(byId('allocation-edit-0'));
    // The GL account is fixed for this user: shown, not changeable.
    const fixed = (await screen.findByLabelText('GL account (line 1)')) as HTMLInputElement;
    expect(fixed.readOnly).toBe(true);
    expect(fixed.value).toBe('6100');
    fireEvent.click(screen.getByRole('button', { name: 'Add a line' }));
    await waitFor(() => expect(byId('allocation-1-percent')).toBeDefined());
    fireEvent.change(byId('allocation-0-percent'), { target: { value: '60' } });
    fireEvent.change(byId('allocation-1-percent'), { target: { value: '30' } });
    await waitFor(() => expect(byId('allocation-left').textContent).toBe('Left to allocate: 10 %'));
    fireEvent.click(byId('allocation-save'));
    expect(await screen.findByText('The percents must total 100.')).toBeDefined();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(byId('allocation-1-percent'), { target: { value: '40' } });
    fireEvent.click(byId('allocation-save'));
    expect(await screen.findByText('The coding has been saved.')).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      splitLine: 0,
      mode: 'percent',
      lines: [
        { percent: 60, coding: { 1: '4100', 2: '6100' } },
        { percent: 40, coding: { 1: '4100', 2: '6100' } },
      ],
    });
  });

  it('puts the server’s refusal on the line and code it names', async () => {
    mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/5' && call.method === 'GET') return { body: detail };
      if (call.url.startsWith('/app/api/transactions/5/allocation/values'))
        return { body: { rows: [], more: false } };
      if (call.url === '/app/api/transactions/5/allocation' && call.method === 'GET')
        return { body: allocation() };
      if (call.url === '/app/api/transactions/5/allocation' && call.method === 'PUT')
        return {
          status: 400,
          body: {
            code: 'allocation.value.inactive',
            message: '',
            fieldErrors: { 'lines.0.coding.1': 'allocation.value.inactive' },
          },
        };
      return undefined;
    });
    renderApp('/transactions/5', makeContext('A'));
    fireEvent.click(await screen.findByRole('button', { name: 'Change the coding' }));
    await waitFor(() => expect(byId('allocation-0-percent')).toBeDefined());
    fireEvent.click(byId('allocation-save'));
    await waitFor(() => expect(byId('allocation-0-1-error').textContent).toBe('This value is inactive.'));
  });

  it('says why a locked transaction cannot be recoded, and offers no change', async () => {
    mockFetch((call) => {
      if (call.url === '/app/api/transactions/5' && call.method === 'GET')
        return { body: { ...detail, status: 'Locked' } };
      if (call.url === '/app/api/transactions/5/allocation')
        return { body: allocation({ canEdit: false, blocked: 'transactions.edit.locked' }) };
      return undefined;
    });
    renderApp('/transactions/5', makeContext('A'));
    expect(await screen.findByRole('table', { name: /Coding of/ })).toBeDefined();
    expect(byId('allocation-blocked')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Change the coding' })).toBeNull();
  });
});

describe('Additional details (custom data fields)', () => {
  it('shows the fields, and saves them: a date in its format, a list choice; the server’s refusal on its field', async () => {
    const custom = {
      transactionId: 5,
      fields: [
        {
          id: 1,
          label: 'Purpose',
          type: 'text' as const,
          length: 40,
          decimals: 0,
          dateFormat: 'YYYY-MM-DD' as const,
          required: true,
          values: [],
          value: null,
        },
        {
          id: 2,
          label: 'Trip date',
          type: 'date' as const,
          length: 80,
          decimals: 0,
          dateFormat: 'DD.MM.YYYY' as const,
          required: false,
          values: [],
          value: '2026-11-03',
        },
        {
          id: 3,
          label: 'Meeting kind',
          type: 'list' as const,
          length: 80,
          decimals: 0,
          dateFormat: 'YYYY-MM-DD' as const,
          required: false,
          values: ['Client', 'Internal'],
          value: null,
        },
      ],
      canEdit: true,
      blocked: null,
    };
    let refuse = true;
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === '/app/api/transactions/5' && call.method === 'GET') return { body: detail };
      if (call.url === '/app/api/transactions/5/allocation') return { body: allocation({ scheme: null }) };
      if (call.url === '/app/api/transactions/5/custom-fields' && call.method === 'GET')
        return { body: custom };
      if (call.url === '/app/api/transactions/5/custom-fields' && call.method === 'PUT') {
        if (refuse) {
          refuse = false;
          return {
            status: 400,
            body: {
              code: 'customField.value.date',
              message: '',
              fieldErrors: { 'values.2': 'customField.value.date' },
            },
          };
        }
        return {
          body: {
            ...custom,
            fields: custom.fields.map((f) => (f.id === 1 ? { ...f, value: 'Client visit' } : f)),
          },
        };
      }
      return undefined;
    });
    renderApp('/transactions/5', makeContext('A'));
    const facts = await screen.findByRole('heading', { name: 'Additional details' });
    expect(facts).toBeDefined();
    expect(byId('custom-fields-facts').textContent).toContain('03.11.2026');
    fireEvent.click(byId('custom-fields-edit'));
    fireEvent.change(await screen.findByLabelText(/^Purpose/, { selector: 'input' }), {
      target: { value: 'Client visit' },
    });
    fireEvent.change(screen.getByLabelText(/^Trip date/, { selector: 'input' }), {
      target: { value: '31.02.2026' },
    });
    fireEvent.change(screen.getByLabelText(/^Meeting kind/, { selector: 'select' }), {
      target: { value: 'Client' },
    });
    fireEvent.click(byId('custom-fields-save'));
    await waitFor(() => expect(byId('custom-field-2-error').textContent).toBe('Invalid Date'));
    fireEvent.change(screen.getByLabelText(/^Trip date/, { selector: 'input' }), {
      target: { value: '03.11.2026' },
    });
    fireEvent.click(byId('custom-fields-save'));
    expect(await screen.findByText('The details have been saved.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({
      values: { 1: 'Client visit', 2: '03.11.2026', 3: 'Client' },
    });
  });
});
