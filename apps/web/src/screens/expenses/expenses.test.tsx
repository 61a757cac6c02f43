import type { ApprovalProfile, ExpenseSettings, ExpenseType } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

const BASE = '/app/api/org/companies/100001/expense-settings';
const usd = (minor: string) => ({ minor, currency: 'USD', exponent: 2 });

const type = (over: Partial<ExpenseType> = {}): ExpenseType => ({
  id: 1,
  name: 'Meals',
  category: 'general',
  properties: [{ label: 'Attendees', kind: 'text', required: true }],
  active: true,
  limit: usd('7500'),
  receiptAbove: usd('1000'),
  ...over,
});

const profile = (over: Partial<ApprovalProfile> = {}): ApprovalProfile => ({
  id: 7,
  name: 'Finance',
  limit: usd('2500000'),
  approvalPercentage: 50,
  approvers: [{ userId: 'admin01', name: 'Ada Admin' }],
  active: true,
  inUse: true,
  ...over,
});

const settings = (over: Partial<ExpenseSettings> = {}): ExpenseSettings => ({
  company: '100001',
  types: [type()],
  policy: {
    currency: 'USD',
    exponent: 2,
    receiptAbove: usd('2500'),
    descriptionMaxLength: 200,
    workflowInstructions: 'Attach receipts.',
    limits: [{ typeId: 1, limit: usd('7500'), receiptAbove: usd('1000') }],
    updatedAt: '2026-11-29T00:00:00.000Z',
  },
  mileageRates: [{ id: 3, name: 'Private car', unit: 'mi', currency: 'USD', rate: '0.7', active: true }],
  taxRates: [{ id: 4, name: 'Sales tax', rate: '8.875', active: true }],
  approvalProfiles: [profile()],
  thresholds: [{ id: 9, amount: usd('1000000'), profileId: 7, profileName: 'Finance' }],
  canModify: true,
  readOnly: false,
  ...over,
});

async function rowAction(name: string, action: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  const menu = await screen.findByRole('menu');
  fireEvent.click(within(menu).getByRole('menuitem', { name: action }));
}

describe('Expense set-up', () => {
  it('adds an expense type with a property by keyboard-reachable fields and shows the server’s refusal on the name', async () => {
    let current = settings();
    const calls = mockFetch((call) => {
      if (call.url === BASE && call.method === 'GET') return { body: current };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/types` && call.method === 'POST') {
        const body = call.body as { name: string };
        if (body.name === 'Meals')
          return {
            status: 400,
            body: {
              code: 'expenseType.name.duplicate',
              message: '',
              fieldErrors: { name: 'expenseType.name.duplicate' },
            },
          };
        const added = type({
          id: 2,
          name: body.name,
          limit: null,
          receiptAbove: usd('2500'),
          properties: [],
        });
        current = settings({ types: [...current.types, added] });
        return { status: 201, body: added };
      }
      return undefined;
    });
    renderApp('/organisation/100001/expenses/types');
    const table = await screen.findByRole('table', { name: 'Expense types' });
    expect(within(table).getByText('$75.00')).toBeDefined();
    expect(screen.getByText('49 more can be added.')).toBeDefined();
    const nav = screen.getByRole('navigation', { name: 'Expense set-up' });
    expect(within(nav).getByRole('link', { name: 'Expense types' }).getAttribute('aria-current')).toBe(
      'page',
    );

    const name = screen.getByLabelText('Name', { selector: 'input' });
    fireEvent.change(name, { target: { value: 'Meals' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add expense type' }));
    expect(await screen.findByText(problemTextOf('expenseType.name.duplicate'))).toBeDefined();

    fireEvent.click(screen.getByRole('button', { name: 'Add a property' }));
    const label = await screen.findByLabelText('Label of property 1', { selector: 'input' });
    await waitFor(() => expect(document.activeElement).toBe(label));
    fireEvent.change(label, { target: { value: 'Supplier' } });
    fireEvent.change(name, { target: { value: 'Software' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add expense type' }));
    expect(await screen.findByText('Added.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      name: 'Software',
      category: 'general',
      properties: [{ label: 'Supplier', kind: 'text', required: false }],
      active: true,
    });
  });

  it('checks rates before sending them: a mileage rate above zero, a tax rate up to 100', async () => {
    const calls = mockFetch((call) => {
      if (call.url === BASE && call.method === 'GET') return { body: settings() };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.method === 'POST')
        return {
          status: 201,
          body: { id: 5, name: 'Van', rate: '0.5', unit: 'km', currency: 'EUR', active: true },
        };
      return undefined;
    });
    renderApp('/organisation/100001/expenses/rates');
    const mileage = await screen.findByRole('table', { name: 'Mileage rates' });
    expect(within(mileage).getByText('0.7 USD per mile')).toBeDefined();
    const form = document.getElementById('mileage-create-form') as HTMLFormElement;
    fireEvent.change(within(form).getByLabelText('Name', { selector: 'input' }), {
      target: { value: 'Van' },
    });
    const rate = within(form).getByLabelText('Rate', { selector: 'input' });
    fireEvent.change(rate, { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add mileage rate' }));
    expect(await within(form).findByText(problemTextOf('mileageRate.rate.positive'))).toBeDefined();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(rate, { target: { value: '0.5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add mileage rate' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: `${BASE}/mileage-rates`,
      body: { name: 'Van', unit: 'km', currency: 'EUR', rate: '0.5', active: true },
    });
  });

  it('refuses a profile without an approval limit and deletes a threshold after confirming', async () => {
    const calls = mockFetch((call) => {
      if (call.url === BASE && call.method === 'GET') return { body: settings() };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.method === 'DELETE') return { status: 204 };
      return undefined;
    });
    renderApp('/organisation/100001/expenses/approvals');
    const profiles = await screen.findByRole('table', { name: 'Approval profiles' });
    expect(within(profiles).getByText('$25,000.00')).toBeDefined();
    expect(within(profiles).getByText('Ada Admin')).toBeDefined();
    const form = document.getElementById('profile-create-form') as HTMLFormElement;
    fireEvent.change(within(form).getByLabelText('Name', { selector: 'input' }), {
      target: { value: 'Directors' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Add approval profile' }));
    expect(await within(form).findByText(problemTextOf('approvalProfile.limit.required'))).toBeDefined();

    await rowAction('$10,000.00', 'Delete');
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete $10,000.00?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted.')).toBeDefined();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === `${BASE}/approval-thresholds/9`)).toBe(true);
  });

  it('shows the system administrator the policy as facts with the read-only notice, and no forms', async () => {
    mockFetch((call) => {
      if (call.url === BASE && call.method === 'GET')
        return { body: settings({ canModify: false, readOnly: true }) };
      return undefined;
    });
    renderApp('/organisation/100001/expenses/policy');
    expect(await screen.findByText(/read-only/i)).toBeDefined();
    const facts = document.getElementById('policy-facts') as HTMLElement;
    await waitFor(() => expect(within(facts).getByText('$25.00')).toBeDefined());
    expect(within(facts).getByText('Attach receipts.')).toBeDefined();
    expect(document.getElementById('policy-form')).toBeNull();
  });
});
