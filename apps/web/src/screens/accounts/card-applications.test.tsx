import type { AccountGroupList, AccountList, CardApplication, CardApplicationList } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Call, makeContext, mockFetch, problemTextOf, renderApp, TEXTS } from '../../test/support.tsx';

/** A company's new card account applications (issue 18 item 3), against a mocked API. */

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=tok123; Path=/';
});
afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=; Max-Age=0; Path=/';
});

const COMPANY = '/app/api/org/companies/100001';
const BASE = `${COMPANY}/card-applications`;
const PATH = '/organisation/100001/card-applications';
const byId = (id: string) => document.getElementById(id) as HTMLElement;
const type = (id: string, value: string) => fireEvent.change(byId(id), { target: { value } });

/** A Luhn-valid card number. */
const NUMBER = '5424180000000015';

const pending = (over: Partial<CardApplication> = {}): CardApplication => ({
  id: 2,
  status: 'Pending',
  firstName: 'Paula',
  lastName: 'Pending',
  email: 'paula@acme.example',
  locale: 'en_US',
  reason: 'I travel to customers every week.',
  appliedAt: '2026-11-21T10:30:00.000Z',
  decision: null,
  ...over,
});

const approved = (over: Partial<CardApplication> = {}): CardApplication =>
  pending({
    status: 'Approved',
    decision: {
      by: 'admin01',
      at: '2026-11-22T08:00:00.000Z',
      reason: null,
      account: { id: 41, maskedNumber: '542418******0015' },
      cardholderId: 12,
    },
    ...over,
  });

const declined = (over: Partial<CardApplication> = {}): CardApplication =>
  pending({
    id: 1,
    status: 'Declined',
    firstName: 'Dan',
    lastName: 'Declined',
    email: 'dan@acme.example',
    reason: '',
    decision: {
      by: 'admin01',
      at: '2026-11-20T08:00:00.000Z',
      reason: 'You already hold a card.',
      account: null,
      cardholderId: null,
    },
    ...over,
  });

const groups: AccountGroupList = {
  rows: [
    { id: 1, name: 'Travel', active: true, activeAccounts: 2 },
    { id: 2, name: 'Purchasing', active: true, activeAccounts: 1 },
    { id: 3, name: 'Old projects', active: false, activeAccounts: 0 },
  ],
  canModify: true,
  readOnly: false,
};

const page = (rows: CardApplication[], over: Partial<CardApplicationList> = {}): CardApplicationList => ({
  rows,
  nextCursor: null,
  prevCursor: null,
  canModify: true,
  ...over,
});

/** The API with these applications and the company's account groups; `answer` may reply first. */
function serve(
  rows: CardApplication[],
  over: Partial<CardApplicationList> = {},
  answer: (call: Call) => { status?: number; body?: unknown } | undefined = () => undefined,
) {
  return mockFetch((call) => {
    const replied = answer(call);
    if (replied) return replied;
    if (call.method === 'GET' && (call.url === BASE || call.url.startsWith(`${BASE}?`)))
      return { body: page(rows, over) };
    if (call.method === 'GET' && call.url === `${COMPANY}/account-groups`) return { body: groups };
    return undefined;
  });
}

describe('card applications', () => {
  it('lists the applications under the company’s tabs and filters them by status', async () => {
    const calls = serve([pending(), declined()]);
    renderApp(PATH, makeContext('C'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Card applications of 100001' }),
    ).toBeDefined();
    const tabs = screen.getByRole('navigation', { name: 'Sections of company 100001' });
    const tab = within(tabs).getByRole('link', { name: 'Card applications' });
    expect(tab.getAttribute('href')).toBe(PATH);
    expect(tab.getAttribute('aria-current')).toBe('page');
    const table = await screen.findByRole('table', { name: 'Card applications' });
    const paula = within(table)
      .getByRole('rowheader', { name: 'Paula Pending' })
      .closest('tr') as HTMLElement;
    expect(within(paula).getByText('paula@acme.example')).toBeDefined();
    expect(within(paula).getByText('Pending')).toBeDefined();
    const dan = within(table).getByRole('rowheader', { name: 'Dan Declined' }).closest('tr') as HTMLElement;
    expect(within(dan).getByText('Declined')).toBeDefined();
    const review = byId('application-review-2');
    expect(review.textContent).toBe('Review');
    expect(review.getAttribute('aria-describedby')).toBe('application-name-2');
    expect(calls[0]?.url).toBe(BASE);

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'Pending' } });
    await waitFor(() => expect(calls.at(-1)?.url).toBe(`${BASE}?status=Pending`));
    expect((byId('applications-status') as HTMLSelectElement).value).toBe('Pending');
  });

  it('says when there are none', async () => {
    serve([]);
    renderApp(PATH, makeContext('G'));
    expect(await screen.findByText('No card applications.')).toBeDefined();
  });

  it('approves with the issued card and its group, checking the number and expiry first', async () => {
    const calls = serve([pending()], {}, (call) =>
      call.method === 'POST' && call.url === `${BASE}/2/approve` ? { body: approved() } : undefined,
    );
    renderApp(PATH, makeContext('C'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Application of Paula Pending' });
    const facts = byId('application-facts');
    expect(within(facts).getByText('Why a card')).toBeDefined();
    expect(byId('application-reason').textContent).toBe('I travel to customers every week.');
    expect(within(facts).getByText('paula@acme.example')).toBeDefined();
    expect(within(facts).getByText('Language')).toBeDefined();
    expect(
      within(dialog).getByRole('heading', { level: 3, name: 'Approve with the issued card' }),
    ).toBeDefined();
    // Focus is inside the dialog (the page behind is inert).
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    const cardNumber = byId('approve-cardNumber');
    expect(cardNumber.getAttribute('inputmode')).toBe('numeric');
    expect(cardNumber.getAttribute('autocomplete')).toBe('off');
    // Only the company's active groups are offered, after "None".
    const group = within(dialog).getByLabelText('Account group') as HTMLSelectElement;
    await waitFor(() => expect(group.options.length).toBe(3));
    expect([...group.options].map((o) => o.text)).toEqual(['None', 'Travel', 'Purchasing']);

    // Both required, and checked as the server checks them, before anything is sent.
    fireEvent.click(byId('approve-submit'));
    expect(await within(dialog).findByText(problemTextOf('account.number.required'))).toBeDefined();
    expect(within(dialog).getByText(problemTextOf('cardExpiry.required'))).toBeDefined();
    type('approve-cardNumber', '5424180000000016');
    type('approve-expiry', '13/30');
    fireEvent.click(byId('approve-submit'));
    expect(await within(dialog).findByText(problemTextOf('account.number.luhn'))).toBeDefined();
    expect(within(dialog).getByText(problemTextOf('cardExpiry.format'))).toBeDefined();
    expect(byId('approve-expiry').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.url.endsWith('/approve'))).toBe(false);

    type('approve-cardNumber', NUMBER);
    type('approve-expiry', '09/30');
    fireEvent.change(group, { target: { value: '2' } });
    fireEvent.click(byId('approve-submit'));
    await waitFor(() =>
      expect(byId('applications-done').textContent).toBe(
        'Approved: card account 542418******0015 issued to the new cardholder; the applicant is told by e-mail.',
      ),
    );
    expect(byId('applications-done').getAttribute('role')).toBe('status');
    const post = calls.find((c) => c.url.endsWith('/approve'));
    expect(post?.body).toEqual({ cardNumber: NUMBER, expiry: '09/30', groupId: 2, orgPoint: null });
    expect(post?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The list is read again after the decision.
    expect(calls.filter((c) => c.method === 'GET' && c.url === BASE).length).toBeGreaterThan(1);
  });

  it('sends no group and no org point when none is given, and shows the server’s refusal on its field', async () => {
    const calls = serve([pending()], {}, (call) =>
      call.url === `${BASE}/2/approve`
        ? {
            status: 409,
            body: {
              code: 'account.number.duplicate',
              message: 'x',
              fieldErrors: { cardNumber: 'account.number.duplicate' },
            },
          }
        : undefined,
    );
    renderApp(PATH, makeContext('H'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog');
    type('approve-cardNumber', NUMBER);
    type('approve-expiry', '09/30');
    type('approve-orgPoint', '   ');
    fireEvent.click(byId('approve-submit'));
    await waitFor(() => expect(byId('approve-cardNumber').getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText(problemTextOf('account.number.duplicate'))).toBeDefined();
    expect(calls.find((c) => c.url.endsWith('/approve'))?.body).toEqual({
      cardNumber: NUMBER,
      expiry: '09/30',
      groupId: null,
      orgPoint: null,
    });
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(byId('applications-done').textContent).toBe('');
  });

  it('declines with a reason, refusing an empty one before sending', async () => {
    const calls = serve([pending()], {}, (call) =>
      call.url === `${BASE}/2/decline` ? { body: declined({ id: 2 }) } : undefined,
    );
    renderApp(PATH, makeContext('I'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { level: 3, name: 'Decline the application' })).toBeDefined();
    const reason = within(dialog).getByLabelText('Reason (the applicant is told)');
    expect(reason.tagName).toBe('TEXTAREA');
    expect(reason.id).toBe('decline-reason');
    fireEvent.click(byId('decline-submit'));
    expect(await within(dialog).findByText(problemTextOf('reason.required'))).toBeDefined();
    expect(calls.some((c) => c.url.endsWith('/decline'))).toBe(false);

    fireEvent.change(reason, { target: { value: '  No budget for new cards this year. ' } });
    fireEvent.click(byId('decline-submit'));
    await waitFor(() =>
      expect(byId('applications-done').textContent).toBe('Declined; the applicant has been told why.'),
    );
    expect(calls.find((c) => c.url.endsWith('/decline'))?.body).toEqual({
      reason: 'No budget for new cards this year.',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes the review and says so when another administrator decided first', async () => {
    serve([pending()], {}, (call) =>
      call.url === `${BASE}/2/decline`
        ? { status: 409, body: { code: 'cardApplication.decided', message: 'decided' } }
        : undefined,
    );
    renderApp(PATH, makeContext('C'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    await screen.findByRole('dialog');
    type('decline-reason', 'No budget.');
    fireEvent.click(byId('decline-submit'));
    await waitFor(() =>
      expect(byId('applications-error').textContent).toContain(problemTextOf('cardApplication.decided')),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows a decision’s facts: who, when, the reason, the card account linked to its page', async () => {
    serve([approved(), declined()]);
    renderApp(PATH, makeContext('C'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review', description: 'Paula Pending' }));
    const dialog = await screen.findByRole('dialog', { name: 'Application of Paula Pending' });
    expect(byId('application-decidedBy').textContent).toContain('admin01');
    const link = within(byId('application-account')).getByRole('link', { name: '542418******0015' });
    expect(link.getAttribute('href')).toBe('/organisation/100001/accounts/41');
    expect(byId('approve-form')).toBeNull();
    expect(byId('decline-form')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(byId('application-review-1'));
    await screen.findByRole('dialog', { name: 'Application of Dan Declined' });
    expect(byId('application-declineReason').textContent).toBe('You already hold a card.');
    expect(byId('application-account')).toBeNull();
  });

  it('shows a system administrator the list and the facts, but no decision forms', async () => {
    const calls = serve([pending(), declined()], { canModify: false });
    renderApp(PATH, makeContext('Z'));
    const table = await screen.findByRole('table', { name: 'Card applications' });
    expect(within(table).getAllByRole('row').length).toBe(3);
    fireEvent.click(byId('application-review-2'));
    const dialog = await screen.findByRole('dialog', { name: 'Application of Paula Pending' });
    expect(within(dialog).getByText('I travel to customers every week.')).toBeDefined();
    expect(byId('approve-form')).toBeNull();
    expect(byId('decline-form')).toBeNull();
    expect(calls.some((c) => c.url.endsWith('/account-groups'))).toBe(false);
  });

  it('is a tab of the company for its administrators, not for a cardholder', async () => {
    const accounts: AccountList = {
      rows: [],
      total: 0,
      nextCursor: null,
      prevCursor: null,
      pageCount: 0,
      pageSize: 25,
      canModify: false,
      readOnly: false,
    };
    mockFetch((call) => (call.url.startsWith(`${COMPANY}/accounts`) ? { body: accounts } : undefined));
    const shown = renderApp('/organisation/100001/accounts', makeContext('C'));
    let tabs = await screen.findByRole('navigation', { name: 'Sections of company 100001' });
    const tab = within(tabs).getByRole('link', { name: 'Card applications' });
    expect(tab.id).toBe('tab-card-applications');
    expect(tab.getAttribute('href')).toBe(PATH);
    shown.unmount();

    renderApp('/organisation/100001/accounts', makeContext('A'));
    tabs = await screen.findByRole('navigation', { name: 'Sections of company 100001' });
    expect(within(tabs).getByRole('link', { name: 'Accounts' })).toBeDefined();
    expect(within(tabs).queryByRole('link', { name: 'Card applications' })).toBeNull();
  });

  it('is not open to a cardholder', async () => {
    const calls = serve([pending()]);
    renderApp(PATH, makeContext('A'));
    expect(
      await screen.findByRole('heading', { level: 1, name: TEXTS['app.notPermitted.heading'] }),
    ).toBeDefined();
    expect(calls.some((c) => c.url.startsWith(BASE))).toBe(false);
  });
});
