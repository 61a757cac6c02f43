import type { CompanyRegistration, CompanyRegistrationList } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Call, makeContext, mockFetch, renderApp } from '../../test/support.tsx';

/** An issuer's company self-registrations (issue 18 item 1), against a mocked API. */

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=tok123; Path=/';
});
afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=; Max-Age=0; Path=/';
});

const BASE = '/app/api/org/issuers/1001/company-registrations';
const byId = (id: string) => document.getElementById(id) as HTMLElement;
const type = (id: string, value: string) => fireEvent.change(byId(id), { target: { value } });

const invited = (over: Partial<CompanyRegistration> = {}): CompanyRegistration => ({
  id: 1,
  status: 'Invited',
  code: '20261122',
  companyName: 'Acme Industries',
  invitedAt: '2026-11-20T09:00:00.000Z',
  invitedBy: 'issueradmin',
  locked: false,
  application: null,
  decision: null,
  ...over,
});

const applied = (over: Partial<CompanyRegistration> = {}): CompanyRegistration =>
  invited({
    id: 2,
    status: 'Applied',
    code: '55501234',
    companyName: 'Beta Logistics',
    application: {
      companyName2: 'Freight division',
      firstName: 'Bea',
      lastName: 'Boss',
      userId: 'beta01',
      email: 'bea@beta.example',
      locale: 'en_US',
      appliedAt: '2026-11-21T10:30:00.000Z',
    },
    ...over,
  });

const page = (rows: CompanyRegistration[], over: Partial<CompanyRegistrationList> = {}) => ({
  rows,
  nextCursor: null,
  prevCursor: null,
  canModify: true,
  enabled: true,
  ...over,
});

/** The API with these registrations; `answer` may reply to the writes first. */
function serve(
  rows: CompanyRegistration[],
  over: Partial<CompanyRegistrationList> = {},
  answer: (call: Call) => { status?: number; body?: unknown } | undefined = () => undefined,
) {
  return mockFetch((call) => {
    const replied = answer(call);
    if (replied) return replied;
    if (call.method === 'GET' && (call.url === BASE || call.url.startsWith(`${BASE}?`)))
      return { body: page(rows, over) };
    return undefined;
  });
}

describe('company registrations', () => {
  it('lists the registrations and filters them by status', async () => {
    const calls = serve([invited({ locked: true }), applied()]);
    renderApp('/issuers/1001/company-registrations', makeContext('I'));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Company registrations of 1001' }),
    ).toBeDefined();
    const table = await screen.findByRole('table', { name: 'Company registrations' });
    const acme = within(table)
      .getByRole('rowheader', { name: 'Acme Industries' })
      .closest('tr') as HTMLElement;
    expect(within(acme).getByText('20261122')).toBeDefined();
    expect(within(acme).getByText('Invited')).toBeDefined();
    expect(within(acme).getByText('Locked after failed attempts')).toBeDefined();
    const beta = within(table)
      .getByRole('rowheader', { name: 'Beta Logistics' })
      .closest('tr') as HTMLElement;
    expect(within(beta).getByText('Applied')).toBeDefined();
    expect(within(beta).getByText('Bea Boss')).toBeDefined();
    expect(within(beta).getByText('beta01')).toBeDefined();
    expect(byId('registration-review-2').textContent).toBe('Review');
    expect(calls[0]?.url).toBe(BASE);

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'Applied' } });
    await waitFor(() => expect(calls.at(-1)?.url).toBe(`${BASE}?status=Applied`));
    expect(screen.queryByText('Self-registration is switched off', { exact: false })).toBeNull();
  });

  it('invites a company: the code drawn by the server when none is typed, and shown', async () => {
    const calls = serve([], {}, (call) =>
      call.method === 'POST' && call.url === BASE
        ? { status: 201, body: invited({ id: 9, companyName: 'Gamma GmbH', code: '48151623' }) }
        : undefined,
    );
    renderApp('/issuers/1001/company-registrations', makeContext('H'));
    expect(await screen.findByText('No company registrations.')).toBeDefined();
    // The domain's rules first: a name is required; a typed code is 6–10 digits.
    type('invite-code', '12ab');
    fireEvent.click(byId('invite-submit'));
    expect(await screen.findByText('Company name is required.')).toBeDefined();
    expect(screen.getByText('The company code is 6 to 10 digits.')).toBeDefined();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    type('invite-companyName', '  Gamma GmbH ');
    type('invite-code', '');
    fireEvent.click(byId('invite-submit'));
    await waitFor(() =>
      expect(byId('registrations-done').textContent).toBe(
        'Invitation created. Give the company its corporate code: 48151623.',
      ),
    );
    expect(byId('registrations-done').getAttribute('role')).toBe('status');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ companyName: 'Gamma GmbH', code: null });
    expect((byId('invite-companyName') as HTMLInputElement).value).toBe('');
    // The list is read again after the change.
    expect(calls.filter((c) => c.method === 'GET' && c.url === BASE).length).toBeGreaterThan(1);
  });

  it('shows a taken code on its field', async () => {
    const calls = serve([], {}, (call) =>
      call.method === 'POST' && call.url === BASE
        ? {
            status: 409,
            body: {
              code: 'registrationCode.taken',
              message: 'taken',
              fieldErrors: { code: 'registrationCode.taken' },
            },
          }
        : undefined,
    );
    renderApp('/issuers/1001/company-registrations', makeContext('I'));
    await screen.findByText('No company registrations.');
    type('invite-companyName', 'Gamma GmbH');
    type('invite-code', '123456');
    fireEvent.click(byId('invite-submit'));
    await waitFor(() => expect(byId('invite-code').getAttribute('aria-invalid')).toBe('true'));
    expect(byId('invite-code-error').textContent).toContain('Another company already uses this code.');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      companyName: 'Gamma GmbH',
      code: '123456',
    });
  });

  it('approves an application with the new company number and shows the outcome', async () => {
    const calls = serve([applied()], {}, (call) =>
      call.method === 'POST' && call.url === `${BASE}/2/approve`
        ? {
            body: applied({
              status: 'Approved',
              decision: {
                by: 'issueradmin',
                at: '2026-11-22T08:00:00.000Z',
                reason: null,
                companyNumber: '300001',
              },
            }),
          }
        : undefined,
    );
    renderApp('/issuers/1001/company-registrations', makeContext('I'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Registration of Beta Logistics' });
    const facts = byId('registration-facts');
    expect(within(facts).getByText('Freight division')).toBeDefined();
    expect(within(facts).getByText('bea@beta.example')).toBeDefined();
    expect(byId('registration-userId').textContent).toBe('beta01');
    expect(within(dialog).getByRole('heading', { level: 3, name: 'Approve the application' })).toBeDefined();
    // Focus is inside the dialog (the page behind is inert).
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    // The company number follows the company rules before anything is sent.
    type('approve-companyNumber', '30a');
    fireEvent.click(byId('approve-submit'));
    expect(await within(dialog).findByText('Company number is not in a valid format.')).toBeDefined();
    expect(calls.some((c) => c.url.endsWith('/approve'))).toBe(false);

    type('approve-companyNumber', '300001');
    fireEvent.click(byId('approve-submit'));
    await waitFor(() =>
      expect(byId('registrations-done').textContent).toBe(
        'Approved: company 300001 and its program administrator beta01 exist; the first password is on its way by e-mail.',
      ),
    );
    expect(calls.find((c) => c.url.endsWith('/approve'))?.body).toEqual({ companyNumber: '300001' });
    expect(calls.find((c) => c.url.endsWith('/approve'))?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends the company group only when one is typed, and shows a refusal at the form', async () => {
    const calls = serve([applied()], {}, (call) =>
      call.url === `${BASE}/2/approve`
        ? {
            status: 409,
            body: { code: 'userId.exists', message: 'x', fieldErrors: { userId: 'userId.exists' } },
          }
        : undefined,
    );
    renderApp('/issuers/1001/company-registrations', makeContext('H'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog');
    type('approve-companyNumber', '300001');
    type('approve-groupName', ' Logistics ');
    fireEvent.click(byId('approve-submit'));
    // The applicant's user ID taken meanwhile: not a field of this form, so its summary says it.
    await waitFor(() => expect(byId('approve-error').textContent).toContain('already exists'));
    expect(calls.find((c) => c.url.endsWith('/approve'))?.body).toEqual({
      companyNumber: '300001',
      groupName: 'Logistics',
    });
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('declines with a reason, refusing an empty one before sending', async () => {
    const calls = serve([applied()], {}, (call) =>
      call.url === `${BASE}/2/decline`
        ? {
            body: applied({
              status: 'Declined',
              decision: {
                by: 'issueradmin',
                at: '2026-11-22T08:00:00.000Z',
                reason: 'x',
                companyNumber: null,
              },
            }),
          }
        : undefined,
    );
    renderApp('/issuers/1001/company-registrations', makeContext('I'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog');
    const reason = within(dialog).getByLabelText('Reason (the applicant is told)');
    expect(reason.tagName).toBe('TEXTAREA');
    fireEvent.click(byId('decline-submit'));
    expect(await within(dialog).findByText('A reason is required.')).toBeDefined();
    expect(calls.some((c) => c.url.endsWith('/decline'))).toBe(false);

    fireEvent.change(reason, { target: { value: 'We have no agreement with this company.' } });
    fireEvent.click(byId('decline-submit'));
    await waitFor(() =>
      expect(byId('registrations-done').textContent).toBe('Declined; the applicant has been told why.'),
    );
    expect(calls.find((c) => c.url.endsWith('/decline'))?.body).toEqual({
      reason: 'We have no agreement with this company.',
    });
  });

  it('unlocks a locked code and withdraws an invitation after confirmation', async () => {
    const calls = serve([invited({ locked: true })], {}, (call) => {
      if (call.url === `${BASE}/1/unlock`) return { body: invited() };
      if (call.url === `${BASE}/1` && call.method === 'DELETE') return { status: 204 };
      return undefined;
    });
    renderApp('/issuers/1001/company-registrations', makeContext('I'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Registration of Acme Industries' });
    expect(byId('approve-form')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    await waitFor(() =>
      expect(byId('registrations-done').textContent).toBe('Unlocked: the corporate code can be used again.'),
    );
    expect(calls.find((c) => c.url.endsWith('/unlock'))?.method).toBe('POST');

    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    fireEvent.click(byId('registration-withdraw'));
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Withdraw the invitation of Acme Industries?',
    });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(byId('registrations-done').textContent).toBe('Invitation withdrawn.'));
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(`${BASE}/1`);
  });

  it('shows a refusal outside a form in the error summary', async () => {
    serve([invited()], {}, (call) =>
      call.method === 'DELETE'
        ? { status: 409, body: { code: 'companyRegistration.notInvited', message: 'used' } }
        : undefined,
    );
    renderApp('/issuers/1001/company-registrations', makeContext('I'));
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    fireEvent.click(byId('registration-withdraw'));
    fireEvent.click(byId('withdraw-ok'));
    await waitFor(() =>
      expect(byId('registrations-error').textContent).toContain(
        'This invitation has been used: it can no longer be withdrawn.',
      ),
    );
  });

  it('shows a system administrator the list and the facts, but no invitation or decision', async () => {
    serve([applied(), invited({ id: 3, locked: true })], { canModify: false });
    renderApp('/issuers/1001/company-registrations', makeContext('Z'));
    const table = await screen.findByRole('table', { name: 'Company registrations' });
    expect(within(table).getAllByRole('row').length).toBe(3);
    expect(byId('invite-form')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Invite a company' })).toBeNull();
    fireEvent.click(byId('registration-review-2'));
    const dialog = await screen.findByRole('dialog', { name: 'Registration of Beta Logistics' });
    expect(within(dialog).getByText('Bea Boss')).toBeDefined();
    expect(byId('approve-form')).toBeNull();
    expect(byId('decline-form')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(byId('registration-review-3'));
    await screen.findByRole('dialog', { name: 'Registration of Acme Industries' });
    expect(byId('registration-unlock')).toBeNull();
    expect(byId('registration-withdraw')).toBeNull();
  });

  it('says when the issuer has self-registration switched off, and offers no invitation', async () => {
    serve([], { enabled: false });
    renderApp('/issuers/1001/company-registrations', makeContext('I'));
    expect(
      await screen.findByText(
        'Self-registration is switched off in this issuer’s program options: no company can be invited.',
      ),
    ).toBeDefined();
    expect(byId('invite-form')).toBeNull();
  });

  it('is linked from the issuer’s page', async () => {
    mockFetch((call) => {
      if (call.url === '/app/api/org/issuers/1001')
        return {
          body: {
            number: '1001',
            name1: 'Cardportal Demo Bank',
            name2: '',
            ica: '12345',
            bankNumber: '0042',
            issuerGroupId: null,
            issuerGroupName: null,
            cobrand: null,
            active: true,
            passwordMinLength: 12,
            passwordDurationDays: 90,
            cardBins: '',
            accountDigits: 4,
            companyCount: 0,
            allowed: {
              modify: false,
              changeGroup: false,
              changeStatus: false,
              maintainCompanyGroups: false,
              modifyOptions: false,
            },
          },
        };
      if (call.url === '/app/api/org/issuers/1001/company-groups')
        return { body: { issuer: { number: '1001', name1: 'Bank' }, canMaintain: false, rows: [] } };
      return undefined;
    });
    renderApp('/issuers/1001', makeContext('I'));
    const link = await screen.findByRole('link', { name: 'Company registrations' });
    expect(link.id).toBe('issuer-company-registrations');
    expect(link.getAttribute('href')).toBe('/issuers/1001/company-registrations');
  });
});
