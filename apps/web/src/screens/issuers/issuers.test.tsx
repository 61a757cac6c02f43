import {
  type IssuerDetail,
  type IssuerList,
  OFFERED_PROGRAM_OPTION_KEYS,
  PROGRAM_OPTION_KEYS,
  type ProgramOptionsView,
} from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeContext, mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=tok123; Path=/';
});
afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=; Max-Age=0; Path=/';
});

const issuer = (over: Partial<IssuerDetail> = {}): IssuerDetail => ({
  number: '1001',
  name1: 'Cardportal Demo Bank',
  name2: 'Corporate Card Services',
  ica: '12345',
  bankNumber: '0042',
  issuerGroupId: 1,
  issuerGroupName: 'Cardportal Demo Banking Group',
  cobrand: 'cardportal',
  active: true,
  passwordMinLength: 12,
  passwordDurationDays: 90,
  cardBins: '542418',
  accountDigits: 4,
  companyCount: 2,
  allowed: {
    modify: true,
    changeGroup: true,
    changeStatus: true,
    maintainCompanyGroups: true,
    modifyOptions: true,
  },
  ...over,
});

const list = (over: Partial<IssuerList> = {}): IssuerList => ({
  rows: [issuer()],
  total: 1,
  page: 1,
  pageCount: 1,
  pageSize: 25,
  canCreate: true,
  ...over,
});

const companyOptions = (): ProgramOptionsView => ({
  level: 'company',
  issuer: { number: '1001', name1: 'Cardportal Demo Bank' },
  company: { number: '100001', name1: 'Acme Industries' },
  canModify: true,
  options: OFFERED_PROGRAM_OPTION_KEYS.map((key) => ({
    key,
    issuer: key !== 'reportingStructureUpload',
    company: key === 'singleSignOn' ? false : null,
    effective: key !== 'reportingStructureUpload' && key !== 'singleSignOn',
  })),
});

describe('issuers', () => {
  it('lists issuers with a create link and issuer groups for a system administrator', async () => {
    const calls = mockFetch((call) =>
      call.url.startsWith('/app/api/org/issuers?') ? { body: list() } : undefined,
    );
    renderApp('/issuers', makeContext('Z'));
    const table = await screen.findByRole('table', { name: 'Issuers' });
    expect(within(table).getByRole('link', { name: '1001' }).getAttribute('href')).toBe('/issuers/1001');
    expect(screen.getByText('1 issuer found')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Create issuer' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Issuer groups' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Issuers' }).getAttribute('aria-current')).toBe('page');
    expect(calls[0]?.url).toBe('/app/api/org/issuers?');
  });

  it('shows no Issuers navigation to a company administrator', async () => {
    mockFetch(() => undefined);
    renderApp('/', makeContext('C'));
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(screen.queryByRole('link', { name: 'Issuers' })).toBeNull();
  });

  it('shows an issuer with its company groups and refuses deleting one in use', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/org/issuers/1001' && call.method === 'GET') return { body: issuer() };
      if (call.url === '/app/api/org/issuers/1001' && call.method === 'DELETE')
        return { status: 409, body: { code: 'issuer.inUse', message: 'in use' } };
      if (call.url === '/app/api/org/issuers/1001/company-groups')
        return {
          body: {
            issuer: { number: '1001', name1: 'Cardportal Demo Bank' },
            canMaintain: true,
            rows: [
              {
                id: 1,
                name: 'Demo Manufacturing Group',
                active: true,
                companyCount: 2,
                activeCompanyCount: 2,
              },
            ],
          },
        };
      return undefined;
    });
    renderApp('/issuers/1001', makeContext('Z'));
    const groups = await screen.findByRole('table', { name: 'Company groups' });
    expect(within(groups).getByText('Demo Manufacturing Group')).toBeDefined();
    fireEvent.click(document.getElementById('issuer-delete') as HTMLElement);
    expect(screen.getByText('Delete issuer 1001?')).toBeDefined();
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(
      await screen.findByText('Cannot delete as there is data associated with this issuer.'),
    ).toBeDefined();
    expect(calls.find((c) => c.method === 'DELETE')?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
  });

  it('adds a company group, checking the name first and showing a duplicate on the field', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/org/issuers/1001' && call.method === 'GET')
        return { body: issuer({ allowed: { ...issuer().allowed, modify: false, changeStatus: false } }) };
      if (call.url === '/app/api/org/issuers/1001/company-groups' && call.method === 'POST')
        return {
          status: 409,
          body: {
            code: 'companyGroup.name.duplicate',
            message: 'x',
            fieldErrors: { name: 'companyGroup.name.duplicate' },
          },
        };
      if (call.url === '/app/api/org/issuers/1001/company-groups')
        return { body: { issuer: { number: '1001', name1: 'Bank' }, canMaintain: true, rows: [] } };
      return undefined;
    });
    renderApp('/issuers/1001', makeContext('I'));
    const name = await screen.findByLabelText('Company group name');
    expect(document.getElementById('issuer-delete')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
    expect(await screen.findByText('Company group name is required.')).toBeDefined();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(name, { target: { value: 'Retail' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
    expect(await screen.findByText('This issuer already has a company group with this name.')).toBeDefined();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Retail' });
  });

  it('renames an issuer group in a dialog and deactivates one after confirmation, from its row actions', async () => {
    let name = 'Retail';
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/org/issuer-groups/7' && call.method === 'PATCH') {
        const body = call.body as { name: string };
        if (body.name === 'Wholesale')
          return {
            status: 409,
            body: { code: 'x', message: '', fieldErrors: { name: 'issuerGroup.name.duplicate' } },
          };
        name = body.name;
        return { body: { id: 7, name, active: true, issuerCount: 1, activeIssuerCount: 1 } };
      }
      if (call.url === '/app/api/org/issuer-groups/7/status')
        return { status: 409, body: { code: 'issuerGroup.hasActiveIssuers', message: '' } };
      if (call.url === '/app/api/org/issuer-groups')
        return {
          body: {
            canMaintain: true,
            rows: [{ id: 7, name, active: true, issuerCount: 1, activeIssuerCount: 1 }],
          },
        };
      return undefined;
    });
    renderApp('/issuer-groups', makeContext('Z'));
    const table = await screen.findByRole('table', { name: 'Issuer groups' });
    fireEvent.click(within(table).getByRole('button', { name: 'Actions for Retail' }));
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename: Retail' });
    const field = within(dialog).getByLabelText('New name for Retail') as HTMLInputElement;
    expect(field.value).toBe('Retail');
    // The domain's rule first, then the server's duplicate on the field.
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Issuer group name is required.')).toBeDefined();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.change(field, { target: { value: 'Wholesale' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    fireEvent.change(field, { target: { value: 'Retail banks' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The group has been saved.')).toBeDefined();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'PATCH').at(-1)?.body).toEqual({ name: 'Retail banks' });
    // The list is read again after the change.
    expect(await within(table).findByText('Retail banks')).toBeDefined();

    fireEvent.click(within(table).getByRole('button', { name: 'Actions for Retail banks' }));
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Deactivate' }));
    expect(await screen.findByText('Deactivate group Retail banks?')).toBeDefined();
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    await waitFor(() =>
      expect(document.getElementById('issuerGroup-error')?.textContent).toContain(
        problemTextOf('issuerGroup.hasActiveIssuers'),
      ),
    );
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ active: false });
  });

  it('validates the issuer form with the domain rules before sending', async () => {
    const calls = mockFetch((call) =>
      call.url === '/app/api/org/issuer-groups'
        ? {
            body: {
              canMaintain: true,
              rows: [{ id: 1, name: 'Group', active: true, issuerCount: 0, activeIssuerCount: 0 }],
            },
          }
        : undefined,
    );
    renderApp('/issuers/new', makeContext('Z'));
    const number = await screen.findByLabelText('Issuer number');
    fireEvent.change(number, { target: { value: '12a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getAllByText(/Issuer number is not in a valid format/).length).toBeGreaterThan(0),
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(screen.getByRole('combobox', { name: 'Issuer group' })).toBeDefined();
  });
});

describe('issuer password settings', () => {
  it('edits the minimum length and duration as labelled fields, checking their ranges before sending', async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/app/api/org/issuer-groups')
        return {
          body: {
            canMaintain: true,
            rows: [{ id: 1, name: 'Group', active: true, issuerCount: 1, activeIssuerCount: 1 }],
          },
        };
      if (call.url === '/app/api/org/issuers/1001' && call.method === 'GET') return { body: issuer() };
      if (call.url === '/app/api/org/issuers/1001' && call.method === 'PATCH')
        return { body: issuer(call.body as Partial<IssuerDetail>) };
      return undefined;
    });
    renderApp('/issuers/1001/edit', makeContext('Z'));
    const min = (await screen.findByLabelText(
      'Minimum password length (12 to 20 characters)',
    )) as HTMLInputElement;
    const days = screen.getByLabelText('Password duration (30 to 90 days)') as HTMLInputElement;
    expect(min.value).toBe('12');
    expect(days.value).toBe('90');
    fireEvent.change(min, { target: { value: '11' } });
    fireEvent.change(days, { target: { value: '91' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(min.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(min.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'The minimum password length must be a whole number from 12 to 20.',
    );
    expect(document.getElementById(days.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'The password duration must be a whole number of days from 30 to 90.',
    );
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.change(min, { target: { value: '16' } });
    fireEvent.change(days, { target: { value: '60' } });
    // The card settings: BINs of 6–16 digits, 1–8 account digits.
    const bins = screen.getByLabelText('Card BINs');
    const digits = screen.getByLabelText('Account digits to display (1 to 8)');
    fireEvent.change(bins, { target: { value: '54241' } });
    fireEvent.change(digits, { target: { value: '9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(document.getElementById('issuer-cardBins-error')?.textContent).toBe(
        'Card BINs: each BIN is 6 to 16 digits.',
      ),
    );
    expect(document.getElementById('issuer-accountDigits-error')?.textContent).toBe(
      'Account digits to display: a whole number from 1 to 8.',
    );
    fireEvent.change(bins, { target: { value: '542418, 411111' } });
    fireEvent.change(digits, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
      passwordMinLength: 16,
      passwordDurationDays: 60,
      cardBins: '542418, 411111',
      accountDigits: 2,
    });
  });
});

describe('program options', () => {
  it('shows both levels and what is in effect, with "on" unavailable where the issuer has it off', async () => {
    mockFetch((call) =>
      call.url === '/app/api/org/companies/100001/program-options' ? { body: companyOptions() } : undefined,
    );
    renderApp('/organisation/100001/program-options', makeContext('I'));
    const upload = (await screen.findByRole('combobox', {
      name: 'Reporting structure upload',
    })) as HTMLSelectElement;
    expect((within(upload).getByRole('option', { name: 'On' }) as HTMLOptionElement).disabled).toBe(true);
    expect(screen.getAllByText('Switched off by the issuer').length).toBe(1);
    const sso = screen.getByRole('combobox', { name: 'Single sign-on' }) as HTMLSelectElement;
    expect(sso.value).toBe('off');
    expect(document.getElementById('option-singleSignOn-effective')?.textContent).toBe('Off');
    expect((screen.getByRole('button', { name: 'Save program options' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('saves only the changed options after confirmation', async () => {
    const calls = mockFetch((call) => {
      if (call.url !== '/app/api/org/companies/100001/program-options') return undefined;
      if (call.method === 'PUT') {
        const next = companyOptions();
        next.options = next.options.map((o) =>
          o.key === 'accessAsUser' ? { ...o, company: false, effective: false } : o,
        );
        return { body: next };
      }
      return { body: companyOptions() };
    });
    renderApp('/organisation/100001/program-options', makeContext('I'));
    const accessAs = await screen.findByRole('combobox', { name: 'Access as user' });
    fireEvent.change(accessAs, { target: { value: 'off' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save program options' }));
    expect(screen.getByText('Save the program options?')).toBeDefined();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText('The program options have been saved.')).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ options: { accessAsUser: false } });
    expect(document.getElementById('option-accessAsUser-effective')?.textContent).toBe('Off');
  });

  it('does not offer an option whose feature does not exist yet, even when an answer lists it', async () => {
    mockFetch((call) =>
      call.url === '/app/api/org/companies/100001/program-options'
        ? {
            body: {
              ...companyOptions(),
              options: PROGRAM_OPTION_KEYS.map((key) => ({
                key,
                issuer: true,
                company: null,
                effective: true,
              })),
            },
          }
        : undefined,
    );
    renderApp('/organisation/100001/program-options', makeContext('I'));
    await screen.findByRole('combobox', { name: 'Single sign-on' });
    const offered = screen.getAllByRole('combobox').map((c) => c.id);
    expect(offered).toEqual(OFFERED_PROGRAM_OPTION_KEYS.map((key) => `option-${key}`));
    for (const name of ['Mobile wallet', 'Virtual cards', 'Expense reports'])
      expect(screen.queryByRole('combobox', { name })).toBeNull();
  });

  it('shows the refusal of single sign-on for a multi-user company in the error summary', async () => {
    mockFetch((call) => {
      if (call.url !== '/app/api/org/companies/100001/program-options') return undefined;
      if (call.method === 'PUT')
        return {
          status: 409,
          body: {
            code: 'programOption.ssoWithMultiUser',
            message: 'Single sign-on cannot be combined with multi-user.',
            fieldErrors: { singleSignOn: 'programOption.ssoWithMultiUser' },
          },
        };
      return { body: companyOptions() };
    });
    renderApp('/organisation/100001/program-options', makeContext('I'));
    fireEvent.change(await screen.findByRole('combobox', { name: 'Single sign-on' }), {
      target: { value: 'inherit' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save program options' }));
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(
      await screen.findByText('Single sign-on cannot be combined with multi-user.', { exact: false }),
    ).toBeDefined();
  });

  it('shows issuer options as switches, read-only for an issuer administrator', async () => {
    mockFetch((call) =>
      call.url === '/app/api/org/issuers/1001/program-options'
        ? {
            body: {
              ...companyOptions(),
              level: 'issuer',
              company: undefined,
              canModify: false,
              options: companyOptions().options.map((o) => ({
                ...o,
                company: null,
                effective: o.issuer === true,
              })),
            },
          }
        : undefined,
    );
    renderApp('/issuers/1001/program-options', makeContext('I'));
    const twoFactor = (await screen.findByRole('switch', {
      name: 'Two-factor sign-in (e-mailed code)',
    })) as HTMLInputElement;
    expect(twoFactor.checked).toBe(true);
    expect(twoFactor.disabled).toBe(true);
    expect(screen.getByText('You can view these options but not change them.')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Save program options' })).toBeNull();
  });
});
