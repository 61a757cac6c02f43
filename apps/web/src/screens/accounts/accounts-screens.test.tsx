import type {
  AccountDetail,
  AccountGroupList,
  AccountList,
  AccountSummary,
  CardholderDetail,
  CardholderList,
} from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  companySummary,
  makeContext,
  mockFetch,
  problemTextOf,
  renderApp,
  structure,
} from '../../test/support.tsx';

const BASE = '/app/api/org/companies/100001';

const account = (over: Partial<AccountSummary> = {}): AccountSummary => ({
  id: 7,
  maskedNumber: '542418******1234',
  last4: '1234',
  status: 'Active',
  statusCode: null,
  group: { id: 1, name: 'Travel' },
  cardholder: { id: 3, name1: 'Grace', name2: 'Hopper' },
  alias: null,
  ...over,
});

const accountDetail = (over: Partial<AccountDetail> = {}): AccountDetail => ({
  ...account(),
  statusCodes: [],
  companyNumber: '100001',
  canModify: true,
  readOnly: false,
  expiry: null,
  registrationLocked: false,
  ...over,
});

const holders = (over: Partial<CardholderList> = {}): CardholderList => ({
  rows: Array.from({ length: 25 }, (_, i) => ({
    id: i + 1,
    name1: 'Holder',
    name2: `Number ${i}`,
    active: true,
    orgPoint: { number: 'A110', name1: 'Plant North' },
    accountCount: 1,
  })),
  total: 30,
  nextCursor: 'cursor-1',
  prevCursor: null,
  pageCount: 2,
  pageSize: 25,
  canModify: true,
  readOnly: false,
  ...over,
});

const groups: AccountGroupList = {
  rows: [
    { id: 1, name: 'Travel', active: true, activeAccounts: 2 },
    { id: 2, name: 'Purchasing', active: true, activeAccounts: 1 },
  ],
  canModify: true,
  readOnly: false,
};

describe('Accounts: company tabs', () => {
  it('the company view links to its cardholders, accounts and account groups', async () => {
    mockFetch((call) =>
      call.url === BASE
        ? { body: companySummary() }
        : call.url === `${BASE}/org-points`
          ? { body: structure() }
          : undefined,
    );
    renderApp('/organisation/100001');
    const tabs = await screen.findByRole('navigation', { name: 'Sections of company 100001' });
    expect(within(tabs).getByRole('link', { name: 'Cardholders' }).getAttribute('href')).toBe(
      '/organisation/100001/cardholders',
    );
    expect(within(tabs).getByRole('link', { name: 'Accounts' })).toBeDefined();
    expect(within(tabs).getByRole('link', { name: 'Account groups' })).toBeDefined();
  });
});

describe('Accounts: cardholder search', () => {
  it('lists, pages by key, and refuses 1-character criteria', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith(`${BASE}/cardholders`)
        ? { body: call.url.includes('after=cursor-1') ? holders({ nextCursor: null }) : holders() }
        : undefined,
    );
    renderApp('/organisation/100001/cardholders');
    expect(await screen.findByText('30 cardholders found')).toBeDefined();
    expect(
      screen.getByRole('table', { name: 'Cardholders found' }).querySelectorAll('tbody tr'),
    ).toHaveLength(25);
    expect(screen.getByRole('link', { name: 'Holder Number 0' }).getAttribute('href')).toBe(
      '/organisation/100001/cardholders/1',
    );
    expect(screen.queryByLabelText('Go to page')).toBeNull();
    fireEvent.click(document.getElementById('cardholder-next') as HTMLElement);
    await waitFor(() => expect(calls.some((c) => c.url === `${BASE}/cardholders?after=cursor-1`)).toBe(true));
    expect(await screen.findByText('Page 2 of 2')).toBeDefined();

    fireEvent.change(screen.getByLabelText('Name or last 4 digits of a card'), { target: { value: 'g' } });
    fireEvent.click(document.getElementById('cardholder-search-submit') as HTMLElement);
    expect(await screen.findByText(problemTextOf('search.tooShort'))).toBeDefined();
    expect(calls.filter((c) => c.url.includes('q='))).toHaveLength(0);
    // Four digits are the last four of a card.
    fireEvent.change(screen.getByLabelText('Name or last 4 digits of a card'), { target: { value: '1234' } });
    fireEvent.click(document.getElementById('cardholder-search-submit') as HTMLElement);
    await waitFor(() => expect(calls.some((c) => c.url === `${BASE}/cardholders?q=1234`)).toBe(true));
  });

  it('shows the catalogue message when the result set is too large', async () => {
    mockFetch((call) =>
      call.url.startsWith(`${BASE}/cardholders`)
        ? { status: 400, body: { code: 'search.tooLarge', message: '' } }
        : undefined,
    );
    renderApp('/organisation/100001/cardholders');
    expect(
      await screen.findByText('Result set is too large; please refine your search criteria.'),
    ).toBeDefined();
  });
});

describe('Accounts: cardholder view', () => {
  const detail = (over: Partial<CardholderDetail> = {}): CardholderDetail => ({
    id: 3,
    name1: 'Grace',
    name2: 'Hopper',
    active: true,
    orgPoint: { number: 'A110', name1: 'Plant North' },
    accountCount: 1,
    companyNumber: '100001',
    accounts: [account()],
    canModify: true,
    readOnly: false,
    reasons: [],
    reasonChoices: [],
    ...over,
  });

  it('shows masked accounts and puts a refusal to deactivate on screen', async () => {
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/cardholders/3`) return { body: detail() };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/cardholders/3/status`)
        return { status: 409, body: { code: 'cardholder.hasActiveAccounts', message: '' } };
      return undefined;
    });
    renderApp('/organisation/100001/cardholders/3');
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeDefined();
    expect(screen.getByRole('link', { name: '542418******1234' }).getAttribute('href')).toBe(
      '/organisation/100001/accounts/7',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText(problemTextOf('cardholder.hasActiveAccounts'))).toBeDefined();
    expect(calls.find((c) => c.url.endsWith('/status'))?.body).toEqual({ active: false });
  });

  it('edits names with the shared rules and maps the server field errors', async () => {
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/cardholders/3` && call.method === 'GET') return { body: detail() };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.method === 'PATCH')
        return {
          status: 400,
          body: {
            code: 'form.invalid',
            message: '',
            fieldErrors: { orgPoint: 'cardholder.orgPoint.unknown' },
          },
        };
      return undefined;
    });
    renderApp('/organisation/100001/cardholders/3');
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Name 1'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(problemTextOf('cardholder.name1.required'))).toBeDefined();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Name 1'), { target: { value: 'Grace' } });
    fireEvent.change(screen.getByLabelText('Org point number'), { target: { value: 'Z999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(problemTextOf('cardholder.orgPoint.unknown'))).toBeDefined();
  });

  it('issues a card account: the number checked first, the server’s refusal on its field', async () => {
    let issued = false;
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/cardholders/3` && call.method === 'GET')
        return {
          body: detail(
            issued ? { accounts: [account(), account({ id: 8, maskedNumber: '542418******0011' })] } : {},
          ),
        };
      if (call.url === `${BASE}/account-groups`)
        return {
          body: {
            rows: [{ id: 2, name: 'Travel', active: true, activeAccounts: 3 }],
            canModify: true,
            readOnly: false,
          },
        };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/accounts` && call.method === 'POST') {
        const body = call.body as { number: string };
        if (body.number.startsWith('4111'))
          return {
            status: 400,
            body: { code: 'account.number.bin', message: '', fieldErrors: { number: 'account.number.bin' } },
          };
        issued = true;
        return { body: account({ id: 8, maskedNumber: '542418******0011' }) };
      }
      return undefined;
    });
    renderApp('/organisation/100001/cardholders/3');
    const number = await screen.findByLabelText('Card number of a new account');
    fireEvent.change(number, { target: { value: '5424 1800 0000 0016' } });
    fireEvent.click(screen.getByRole('button', { name: 'Issue the card account' }));
    expect(await screen.findByText(problemTextOf('account.number.luhn'))).toBeDefined();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(number, { target: { value: '4111 1111 1111 1111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Issue the card account' }));
    expect(await screen.findByText(problemTextOf('account.number.bin'))).toBeDefined();
    fireEvent.change(number, { target: { value: '5424 1800 0000 0015' } });
    await screen.findByRole('option', { name: 'Travel' });
    fireEvent.change(screen.getByLabelText('Account group'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Issue the card account' }));
    expect(await screen.findByText('The card account has been issued.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      cardholderId: 3,
      number: '5424 1800 0000 0015',
      expiry: null,
      groupId: 2,
    });
    expect(await screen.findByRole('link', { name: '542418******0011' })).toBeDefined();
    expect((number as HTMLInputElement).value).toBe('');
  });

  it('issues a card account with its expiry date, checked only when given', async () => {
    let refuse = true;
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/cardholders/3` && call.method === 'GET') return { body: detail() };
      if (call.url === `${BASE}/account-groups`)
        return { body: { rows: [], canModify: true, readOnly: false } };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/accounts` && call.method === 'POST') {
        if (refuse)
          return {
            status: 400,
            body: { code: 'form.invalid', message: '', fieldErrors: { expiry: 'cardExpiry.format' } },
          };
        return { body: accountDetail({ id: 8, maskedNumber: '542418******0015', expiry: '09/28' }) };
      }
      return undefined;
    });
    renderApp('/organisation/100001/cardholders/3');
    const expiry = (await screen.findByLabelText('Expiry date (MM/YY, optional)')) as HTMLInputElement;
    expect(expiry.getAttribute('autocomplete')).toBe('off');
    expect(expiry.getAttribute('placeholder')).toBeNull();
    fireEvent.change(screen.getByLabelText('Card number of a new account'), {
      target: { value: '5424 1800 0000 0015' },
    });
    fireEvent.change(expiry, { target: { value: '13/28' } });
    fireEvent.click(screen.getByRole('button', { name: 'Issue the card account' }));
    expect(await screen.findByText(problemTextOf('cardExpiry.format'))).toBeDefined();
    expect(expiry.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // The server's refusal lands on the field too.
    fireEvent.change(expiry, { target: { value: '09/28' } });
    await waitFor(() => expect(expiry.getAttribute('aria-invalid')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Issue the card account' }));
    await waitFor(() => expect(expiry.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(problemTextOf('cardExpiry.format'))).toBeDefined();
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Issue the card account' }));
    expect(await screen.findByText('The card account has been issued.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      cardholderId: 3,
      number: '5424 1800 0000 0015',
      expiry: '09/28',
      groupId: null,
    });
    await waitFor(() => expect(expiry.value).toBe(''));
  });

  it('keeps at most 10 maintenance reason codes of the issuer', async () => {
    const choices = Array.from({ length: 12 }, (_, i) => ({ code: `M${i}`, description: `Reason ${i}` }));
    let current = detail({ reasons: [{ code: 'M0', description: 'Reason 0' }], reasonChoices: choices });
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/cardholders/3` && call.method === 'GET') return { body: current };
      if (call.url === `${BASE}/account-groups`)
        return { body: { rows: [], canModify: true, readOnly: false } };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/cardholders/3/reasons`) {
        const codes = (call.body as { codes: string[] }).codes;
        current = detail({
          reasons: codes.map((code) => ({ code, description: code })),
          reasonChoices: choices,
        });
        return { body: current };
      }
      return undefined;
    });
    renderApp('/organisation/100001/cardholders/3');
    const first = (await screen.findByLabelText('M0 — Reason 0')) as HTMLInputElement;
    expect(first.checked).toBe(true);
    for (let i = 1; i < 10; i++) fireEvent.click(screen.getByLabelText(`M${i} — Reason ${i}`));
    expect(screen.getByText('At most 10; 10 chosen.')).toBeDefined();
    expect((screen.getByLabelText('M10 — Reason 10') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save the reason codes' }));
    expect(await screen.findByText('The maintenance reason codes have been saved.')).toBeDefined();
    const sent = calls.find((c) => c.method === 'PUT')?.body as { codes: string[] } | undefined;
    expect(sent?.codes).toHaveLength(10);
  });

  it('is read-only for a system administrator', async () => {
    mockFetch((call) =>
      call.url === `${BASE}/cardholders/3`
        ? { body: detail({ canModify: false, readOnly: true }) }
        : undefined,
    );
    renderApp('/organisation/100001/cardholders/3', makeContext('Z'));
    expect(
      await screen.findByText('You are signed in as a system administrator: this page is read-only.'),
    ).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });
});

describe('Accounts: account search and view', () => {
  it('filters by group and status and shows masked numbers only', async () => {
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/account-groups`) return { body: groups };
      if (call.url.startsWith(`${BASE}/accounts`)) {
        const list: AccountList = {
          rows: [account()],
          total: 1,
          nextCursor: null,
          prevCursor: null,
          pageCount: 1,
          pageSize: 25,
          canModify: true,
          readOnly: false,
        };
        return { body: list };
      }
      return undefined;
    });
    renderApp('/organisation/100001/accounts');
    expect(await screen.findByText('1 account found')).toBeDefined();
    expect(screen.getByRole('link', { name: '542418******1234' })).toBeDefined();
    fireEvent.change(await screen.findByLabelText('Account group'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'Suspended' } });
    fireEvent.click(document.getElementById('account-search-submit') as HTMLElement);
    await waitFor(() =>
      expect(calls.some((c) => c.url === `${BASE}/accounts?group=2&status=Suspended`)).toBe(true),
    );
  });

  it('moves the chosen accounts to a group after a confirmation, and names the refused ones', async () => {
    const rows = [
      account(),
      account({ id: 8, maskedNumber: '542418******5678', last4: '5678' }),
      account({ id: 9, maskedNumber: '542418******9012', last4: '9012', status: 'Closed' }),
    ];
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/account-groups`) return { body: groups };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/accounts/bulk-move`)
        return {
          body: {
            results: [
              { id: 8, outcome: 'done', code: null },
              { id: 9, outcome: 'refused', code: 'account.status.closedIsFinal' },
            ],
          },
        };
      if (call.url.startsWith(`${BASE}/accounts`)) {
        const list: AccountList = {
          rows,
          total: 3,
          nextCursor: null,
          prevCursor: null,
          pageCount: 1,
          pageSize: 25,
          canModify: true,
          readOnly: false,
        };
        return { body: list };
      }
      return undefined;
    });
    renderApp('/organisation/100001/accounts');
    expect(await screen.findByText('3 accounts found')).toBeDefined();
    // The export link carries the search and the order, not the page.
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      `${BASE}/accounts.csv`,
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select 542418******5678' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select 542418******9012' }));
    const bar = screen.getByRole('group', { name: '2 accounts selected' });
    fireEvent.change(within(bar).getByLabelText('Move to group'), { target: { value: '2' } });
    fireEvent.click(within(bar).getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Move 2 accounts to Purchasing?' });
    expect(within(dialog).getByRole('button', { name: 'Move' }).id).toBe('accounts-bulk-confirm-ok');
    fireEvent.click(document.getElementById('accounts-bulk-confirm-ok') as HTMLElement);
    await waitFor(() =>
      expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(`POST ${BASE}/accounts/bulk-move`),
    );
    const post = calls.find((c) => c.url === `${BASE}/accounts/bulk-move`);
    expect(post?.method).toBe('POST');
    expect(post?.body).toEqual({ groupId: 2, accountIds: [8, 9] });
    const outcome = await screen.findByText('Moved: 1. Already in the group: 0. Refused: 1.');
    expect(outcome).toBeDefined();
    expect(
      screen.getByText(`542418******9012: ${problemTextOf('account.status.closedIsFinal')}`),
    ).toBeDefined();
    // The refused account stays chosen; the moved one does not.
    expect(screen.getByRole('group', { name: '1 account selected' })).toBeDefined();
    expect(
      (screen.getByRole('checkbox', { name: 'Select 542418******9012' }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('changes the status by one of the issuer’s account status codes', async () => {
    let current = accountDetail({
      statusCodes: [
        { code: 'FR', description: 'Suspected fraud', status: 'Suspended' },
        { code: 'AC', description: 'Active', status: 'Active' },
      ],
    });
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/accounts/7` && call.method === 'GET') return { body: current };
      if (call.url === `${BASE}/account-groups`) return { body: groups };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/accounts/7/status`) {
        current = accountDetail({
          status: 'Suspended',
          statusCode: { code: 'FR', description: 'Suspected fraud' },
        });
        return { body: current };
      }
      return undefined;
    });
    renderApp('/organisation/100001/accounts/7');
    const select = (await screen.findByLabelText('New status')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toContain('FR — Suspected fraud (sets Suspended)');
    fireEvent.change(select, { target: { value: 'code:FR' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Change account 542418******1234 to Suspended?')).toBeDefined();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change status' }));
    expect(await screen.findByText(/FR — Suspected fraud/, { selector: '#account-status' })).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ statusCode: 'FR' });
  });

  it('changes the status through the confirmation dialog', async () => {
    let current = accountDetail();
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/accounts/7` && call.method === 'GET') return { body: current };
      if (call.url === `${BASE}/account-groups`) return { body: groups };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/accounts/7/status`) {
        current = accountDetail({ status: (call.body as { status: 'Suspended' }).status });
        return { body: current };
      }
      return undefined;
    });
    renderApp('/organisation/100001/accounts/7');
    expect(await screen.findByRole('heading', { name: 'Account 542418******1234', level: 1 })).toBeDefined();
    const select = screen.getByLabelText('New status') as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['', 'status:Suspended', 'status:Closed']);
    fireEvent.change(select, { target: { value: 'status:Suspended' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Change account 542418******1234 to Suspended?')).toBeDefined();
    // Cancel changes nothing.
    fireEvent.click(document.getElementById('confirm-cancel') as HTMLElement);
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Change status' }));
    await screen.findByRole('alertdialog');
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText('The account status has been changed.')).toBeDefined();
    expect(
      within(document.getElementById('account-status') as HTMLElement).getByText('Suspended'),
    ).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'Suspended' });
  });

  it('shows the expiry date and whether self-registration is locked', async () => {
    mockFetch((call) =>
      call.url === `${BASE}/accounts/7`
        ? { body: accountDetail({ expiry: '09/28' }) }
        : call.url === `${BASE}/account-groups`
          ? { body: groups }
          : undefined,
    );
    renderApp('/organisation/100001/accounts/7');
    expect(await screen.findByText('09/28', { selector: '#account-expiry' })).toBeDefined();
    expect(document.getElementById('account-registration')?.textContent).toBe('Not locked');
    expect(document.getElementById('account-unlock-registration')).toBeNull();
  });

  it('offers no unlock to a caller who may not change the account', async () => {
    mockFetch((call) =>
      call.url === `${BASE}/accounts/7`
        ? { body: accountDetail({ registrationLocked: true, canModify: false, readOnly: true }) }
        : undefined,
    );
    renderApp('/organisation/100001/accounts/7', makeContext('Z'));
    expect(
      await screen.findByText('Locked after failed attempts', { selector: '#account-registration' }),
    ).toBeDefined();
    expect(document.getElementById('account-expiry')?.textContent).toBe('Not recorded');
    expect(screen.queryByRole('button', { name: 'Unlock self-registration' })).toBeNull();
  });

  it('unlocks self-registration with the card after a confirmation', async () => {
    let current = accountDetail({ registrationLocked: true });
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/accounts/7` && call.method === 'GET') return { body: current };
      if (call.url === `${BASE}/account-groups`) return { body: groups };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/accounts/7/registration-unlock` && call.method === 'POST') {
        current = accountDetail({ registrationLocked: false });
        return { status: 204 };
      }
      return undefined;
    });
    renderApp('/organisation/100001/accounts/7');
    const button = await screen.findByRole('button', { name: 'Unlock self-registration' });
    expect(button.id).toBe('account-unlock-registration');
    fireEvent.click(button);
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Unlock self-registration with card 542418******1234?',
    });
    // Cancel changes nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(button);
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Unlock self-registration',
      }),
    );
    expect(await screen.findByText('Self-registration with this card is unlocked.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      `${BASE}/accounts/7/registration-unlock`,
    ]);
    await waitFor(() =>
      expect(document.getElementById('account-registration')?.textContent).toBe('Not locked'),
    );
    expect(document.getElementById('account-unlock-registration')).toBeNull();
  });

  it('shows a refused unlock in the screen’s problem', async () => {
    mockFetch((call) => {
      if (call.url === `${BASE}/accounts/7` && call.method === 'GET')
        return { body: accountDetail({ registrationLocked: true }) };
      if (call.url === `${BASE}/account-groups`) return { body: groups };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url.endsWith('/registration-unlock'))
        return { status: 409, body: { code: 'registration.notLocked', message: '' } };
      return undefined;
    });
    renderApp('/organisation/100001/accounts/7');
    fireEvent.click(await screen.findByRole('button', { name: 'Unlock self-registration' }));
    fireEvent.click(document.getElementById('unlock-confirm-ok') as HTMLElement);
    expect(await screen.findByText(problemTextOf('registration.notLocked'))).toBeDefined();
  });

  it('offers no status change on a closed account, nor to a level manager', async () => {
    mockFetch((call) =>
      call.url === `${BASE}/accounts/7`
        ? { body: accountDetail({ status: 'Closed' }) }
        : call.url === `${BASE}/account-groups`
          ? { body: groups }
          : undefined,
    );
    renderApp('/organisation/100001/accounts/7');
    expect(await screen.findByText('Closed')).toBeDefined();
    expect(screen.queryByLabelText('New status')).toBeNull();
  });
});

describe('Accounts: account groups', () => {
  it('creates a group, and shows a duplicate name on the field', async () => {
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/account-groups` && call.method === 'GET') return { body: groups };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.method === 'POST')
        return (call.body as { name: string }).name === 'Travel'
          ? {
              status: 409,
              body: {
                code: 'accountGroup.name.duplicate',
                message: '',
                fieldErrors: { name: 'accountGroup.name.duplicate' },
              },
            }
          : { status: 201, body: { id: 3, name: 'Fleet', active: true, activeAccounts: 0 } };
      return undefined;
    });
    renderApp('/organisation/100001/account-groups');
    expect(await screen.findByRole('table', { name: 'Account groups' })).toBeDefined();
    const name = document.getElementById('group-create-name') as HTMLInputElement;
    fireEvent.click(document.getElementById('group-create-submit') as HTMLElement);
    expect(await screen.findByText(problemTextOf('accountGroup.name.required'))).toBeDefined();
    fireEvent.change(name, { target: { value: 'Travel' } });
    fireEvent.click(document.getElementById('group-create-submit') as HTMLElement);
    expect(await screen.findByText(problemTextOf('accountGroup.name.duplicate'))).toBeDefined();
    fireEvent.change(name, { target: { value: 'Fleet' } });
    fireEvent.click(document.getElementById('group-create-submit') as HTMLElement);
    expect(await screen.findByText('The account group has been created.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { name: 'Travel' },
      { name: 'Fleet' },
    ]);
  });

  it('deactivates through the dialog (labelled by the group name)', async () => {
    const calls = mockFetch((call) => {
      if (call.url === `${BASE}/account-groups` && call.method === 'GET') return { body: groups };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/account-groups/2/status`)
        return { status: 409, body: { code: 'accountGroup.hasActiveAccounts', message: '' } };
      return undefined;
    });
    renderApp('/organisation/100001/account-groups');
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for Purchasing' }));
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Deactivate' }));
    expect(
      await screen.findByRole('alertdialog', { name: 'Deactivate account group Purchasing' }),
    ).toBeDefined();
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText(problemTextOf('accountGroup.hasActiveAccounts'))).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ active: false });
  });
});

describe('Accounts: My cards', () => {
  it('is in the navigation of a cardholder and lists its masked accounts', async () => {
    mockFetch((call) =>
      call.url === '/app/api/my/cards'
        ? {
            body: {
              cardholder: { id: 3, name1: 'Ada', name2: 'Active' },
              companyNumber: '100001',
              accounts: [account()],
            },
          }
        : undefined,
    );
    renderApp('/my-cards', makeContext('A'));
    const table = await screen.findByRole('table', { name: 'Your card accounts' });
    expect(screen.getByRole('link', { name: 'My cards' })).toBeDefined();
    expect(within(table).getByText('542418******1234')).toBeDefined();
  });

  it('is not offered to administrators', () => {
    mockFetch(() => undefined);
    renderApp('/', makeContext('C'));
    expect(screen.queryByRole('link', { name: 'My cards' })).toBeNull();
  });
});
