import type { SelfRegistrationSettings } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  companySummary,
  makeContext,
  mockFetch,
  problemTextOf,
  renderApp,
  structure,
  TEXTS,
} from '../../test/support.tsx';
import { checkUploadFile } from './structure-upload.tsx';

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=tok123; Path=/';
});
afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test fixture
  document.cookie = 'sec-token=; Max-Age=0; Path=/';
});

const base = '/app/api/org/companies/100001';

const selfRegistration = (over: Partial<SelfRegistrationSettings> = {}): SelfRegistrationSettings => ({
  enabled: true,
  code: '4711001',
  lockedCards: 2,
  ...over,
});

function acme(
  extra: (call: {
    url: string;
    method: string;
    body: unknown;
  }) => { status?: number; body?: unknown } | undefined = () => undefined,
) {
  return mockFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url === base && call.method === 'GET') return { body: companySummary() };
    if (call.url === `${base}/org-points` && call.method === 'GET') return { body: structure() };
    if (call.url === `${base}/self-registration` && call.method === 'GET')
      return { body: selfRegistration() };
    return undefined;
  });
}

/** Chooses an org point's action from its action menu. */
async function pointAction(point: string, action: string) {
  fireEvent.click(screen.getByRole('button', { name: new RegExp(`^Actions for org point ${point} `) }));
  const menu = await screen.findByRole('menu');
  fireEvent.click(within(menu).getByRole('menuitem', { name: action }));
}

/** Puts a file into the upload input (happy-dom cannot pick one). */
function chooseFile(file: File) {
  const input = screen.getByLabelText('Workbook (.xlsx, at most 4 MB)') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
}

describe('company view', () => {
  it('shows the reporting structure as a nested list with disclosure buttons', async () => {
    acme();
    renderApp('/organisation/100001');
    const tree = await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    expect(within(tree).getByText('Plant North')).toBeDefined();
    const toggle = screen.getByRole('button', { name: 'Show or hide the org points under A100 Operations' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const controlled = document.getElementById(toggle.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(controlled.hidden).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(controlled.hidden).toBe(true);
    expect(
      screen.getByRole('link', { name: 'Download reporting structure (.xlsx)' }).getAttribute('href'),
    ).toBe(`${base}/org-points.xlsx`);
  });

  it("deletes only after confirmation and shows the catalogue's refusal", async () => {
    const calls = acme((call) =>
      call.method === 'DELETE' && call.url === base
        ? { status: 409, body: { code: 'company.inUse', message: 'in use' } }
        : undefined,
    );
    renderApp('/organisation/100001', makeContext('I'));
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    const remove = document.getElementById('company-delete') as HTMLElement;
    fireEvent.click(remove);
    expect(screen.getByText('Delete company 100001?')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel', hidden: true }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(remove);
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(
      await screen.findByText('Cannot delete as there is data associated with this company.'),
    ).toBeDefined();
    expect(calls.find((c) => c.method === 'DELETE')?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
  });

  it('goes back to the search after a deletion without reading the deleted company again', async () => {
    const calls = acme((call) => {
      if (call.method === 'DELETE' && call.url === base) return { status: 204 };
      if (call.url.startsWith('/app/api/org/companies?'))
        return { body: { rows: [], total: 0, page: 1, pageCount: 1, pageSize: 25 } };
      return undefined;
    });
    renderApp('/organisation/100001', makeContext('I'));
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    fireEvent.click(document.getElementById('company-delete') as HTMLElement);
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete company 100001?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No companies match your search.')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.filter((c) => c.method === 'GET' && c.url === base)).toHaveLength(1);
  });

  it('offers no company actions to a company administrator but lets it change the structure', async () => {
    acme();
    renderApp('/organisation/100001');
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    expect(document.getElementById('company-delete')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add org point' })).toBeDefined();
  });

  it('adds an org point under another through the dialog, checked with the domain rules', async () => {
    const calls = acme((call) =>
      call.method === 'POST' && call.url === `${base}/org-points` ? { body: structure() } : undefined,
    );
    renderApp('/organisation/100001');
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    await pointAction('A200', 'Add below');
    const dialog = await screen.findByRole('dialog', { name: 'Add org point' });
    expect((within(dialog).getByLabelText('Reports to') as HTMLSelectElement).value).toBe('A200');
    expect((within(dialog).getByLabelText('Reporting level') as HTMLInputElement).value).toBe('3');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please correct the following')).toBeDefined();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Org point number'), { target: { value: 'A220' } });
    fireEvent.change(within(dialog).getByLabelText('Name 1'), { target: { value: 'Payroll' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      number: 'A220',
      name1: 'Payroll',
      name2: '',
      reportingLevel: 3,
      reportsTo: 'A200',
    });
    expect(await screen.findByText('The reporting structure has been updated.')).toBeDefined();
  });

  it('checks the file before sending and shows the per-row report of a refused upload', async () => {
    const calls = acme((call) =>
      call.method === 'POST' && call.url.endsWith('/upload')
        ? {
            status: 422,
            body: {
              code: 'upload.rows',
              message: 'rows',
              rows: [{ row: 3, field: 'reportsTo', problem: 'orgPoint.reportsTo.unknown' }],
            },
          }
        : undefined,
    );
    renderApp('/organisation/100001');
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });

    chooseFile(new File(['x'], 'structure.csv', { type: 'text/csv' }));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(TEXTS['catalogue.data.invalidFileFormat'] as string)).toBeDefined();
    expect(calls.some((c) => c.url.endsWith('/upload'))).toBe(false);

    chooseFile(new File(['PK'], 'structure.xlsx'));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const report = await screen.findByRole('table', {
      name: 'Problems found in the file (nothing has been changed)',
    });
    expect(within(report).getByText('The reports-to org point does not exist.')).toBeDefined();
    const sent = calls.find((c) => c.url.endsWith('/upload'));
    expect(sent?.headers.get('Content-Type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(sent?.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it('refuses files over 4 MB and names other than .xlsx on the client', () => {
    expect(checkUploadFile(undefined)).toBe('upload.required');
    expect(checkUploadFile({ name: 'a.xls', size: 10 })).toBe('upload.unsupportedFormat');
    expect(checkUploadFile({ name: 'a.XLSX', size: 4 * 1024 * 1024 + 1 })).toBe('upload.tooLarge');
    expect(checkUploadFile({ name: 'a.xlsx', size: 4 * 1024 * 1024 })).toBeUndefined();
  });

  it('shows the server messages for a virus and missing headers', async () => {
    let code = 'upload.virus';
    acme((call) => (call.url.endsWith('/upload') ? { status: 422, body: { code, message: '' } } : undefined));
    renderApp('/organisation/100001');
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    chooseFile(new File(['PK'], 'structure.xlsx'));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(TEXTS['catalogue.upload.virus'] as string)).toBeDefined();
    code = 'upload.missingHeaders';
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(TEXTS['catalogue.upload.missingHeaders'] as string)).toBeDefined();
  });
});

describe('org point actions', () => {
  it('moves an org point under another with PATCH, offering no point below itself as parent', async () => {
    const calls = acme((call) => (call.method === 'PATCH' ? { body: structure() } : undefined));
    renderApp('/organisation/100001');
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    await pointAction('A100', 'Edit or move');
    const dialog = await screen.findByRole('dialog', { name: 'Edit or move org point A100' });
    const parent = within(dialog).getByLabelText('Reports to') as HTMLSelectElement;
    expect([...parent.options].map((o) => o.value)).toEqual(['', 'A000', 'A200']);
    fireEvent.change(parent, { target: { value: 'A200' } });
    fireEvent.change(within(dialog).getByLabelText('Reporting level'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe(`${base}/org-points/A100`);
    expect(patch?.body).toEqual({ name1: 'Operations', name2: '', reportingLevel: 3, reportsTo: 'A200' });
  });

  it("confirms deleting an org point and shows the catalogue's refusal when it is in use", async () => {
    const calls = acme((call) =>
      call.method === 'DELETE' ? { status: 409, body: { code: 'orgPoint.inUse', message: '' } } : undefined,
    );
    renderApp('/organisation/100001');
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    await pointAction('A110', 'Delete');
    expect(await screen.findByText('Delete org point A110?')).toBeDefined();
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(
      await screen.findByText('Cannot delete as there is data associated with this org point.'),
    ).toBeDefined();
    expect(calls.find((c) => c.method === 'DELETE')?.url).toBe(`${base}/org-points/A110`);
  });

  it('deactivates a company after confirmation', async () => {
    const calls = acme((call) =>
      call.method === 'PUT' && call.url === `${base}/status`
        ? { body: companySummary({ active: false }) }
        : undefined,
    );
    renderApp('/organisation/100001', makeContext('I'));
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    fireEvent.click(document.getElementById('company-deactivate') as HTMLElement);
    expect(screen.getByText('Deactivate company 100001?')).toBeDefined();
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText('The company has been deactivated.')).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ active: false });
    expect(document.getElementById('company-reactivate')).not.toBeNull();
  });
});

describe('company form', () => {
  it('creates a company; turning multi-user on asks for confirmation first', async () => {
    const calls = mockFetch((call) => {
      if (call.method === 'POST')
        return { status: 201, body: companySummary({ number: '100009', multiUser: true }) };
      if (call.url === '/app/api/org/companies/100009') return { body: companySummary({ number: '100009' }) };
      if (call.url.includes('/org-points')) return { body: structure({ roots: [], count: 0 }) };
      return undefined;
    });
    renderApp('/organisation/new', makeContext('I'));
    fireEvent.change(await screen.findByLabelText('Issuer number'), { target: { value: '1001' } });
    fireEvent.change(screen.getByLabelText('Company number'), { target: { value: '100009' } });
    fireEvent.change(screen.getByLabelText('Name 1'), { target: { value: 'Zeta Corp' } });
    fireEvent.click(screen.getByLabelText('Multi-user'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The fields are checked first (asynchronously), then the confirmation is asked.
    expect(await screen.findByText('Turn multi-user on?')).toBeDefined();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      issuerNumber: '1001',
      number: '100009',
      name1: 'Zeta Corp',
      name2: '',
      groupName: '',
      multiUser: true,
    });
    expect(await screen.findByText('The company has been created.')).toBeDefined();
  });

  it('checks the fields with the domain rules and maps a duplicate number onto its field', async () => {
    const calls = mockFetch((call) =>
      call.method === 'POST'
        ? {
            status: 409,
            body: {
              code: 'company.number.duplicate',
              message: '',
              fieldErrors: { number: 'company.number.duplicate' },
            },
          }
        : undefined,
    );
    renderApp('/organisation/new', makeContext('I'));
    fireEvent.change(await screen.findByLabelText('Company number'), { target: { value: '12ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please correct the following')).toBeDefined();
    expect(screen.getByLabelText('Company number').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText('Issuer number'), { target: { value: '1001' } });
    fireEvent.change(screen.getByLabelText('Company number'), { target: { value: '100001' } });
    fireEvent.change(screen.getByLabelText('Name 1'), { target: { value: 'Acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      (await screen.findAllByText('A company with this number already exists.', { exact: false })).length,
    ).toBeGreaterThan(0);
  });

  it('shows the refusal of multi-user where single sign-on is in effect (seed 001 §6)', async () => {
    mockFetch((call) =>
      call.method === 'POST'
        ? {
            status: 409,
            body: {
              code: 'programOption.ssoWithMultiUser',
              message: 'Single sign-on cannot be combined with multi-user.',
              fieldErrors: { multiUser: 'programOption.ssoWithMultiUser' },
            },
          }
        : undefined,
    );
    renderApp('/organisation/new', makeContext('I'));
    fireEvent.change(await screen.findByLabelText('Issuer number'), { target: { value: '1001' } });
    fireEvent.change(screen.getByLabelText('Company number'), { target: { value: '100009' } });
    fireEvent.change(screen.getByLabelText('Name 1'), { target: { value: 'Zeta Corp' } });
    fireEvent.click(screen.getByLabelText('Multi-user'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Turn multi-user on' }));
    const summary = await waitFor(() => {
      const box = document.getElementById('company-form-errors');
      expect(box?.textContent).toContain('Single sign-on cannot be combined with multi-user.');
      return box;
    });
    expect(summary).not.toBeNull();
  });

  it('keeps multi-user on once it is on (the box is disabled)', async () => {
    mockFetch((call) => (call.url === base ? { body: companySummary({ multiUser: true }) } : undefined));
    renderApp('/organisation/100001/edit', makeContext('I'));
    const box = (await screen.findByLabelText('Multi-user')) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(box.disabled).toBe(true);
  });
});

describe('self-registration section', () => {
  it('shows the option, the code and the locked cards, and saves a new code', async () => {
    const calls = acme((call) =>
      call.method === 'PUT' && call.url === `${base}/self-registration`
        ? { body: selfRegistration({ code: (call.body as { code: string }).code }) }
        : undefined,
    );
    renderApp('/organisation/100001');
    const section = await screen.findByRole('region', { name: 'Cardholder self-registration' });
    expect(
      within(section).getByRole('heading', { level: 2, name: 'Cardholder self-registration' }),
    ).toBeDefined();
    const facts = await within(section).findByText('4711001');
    expect(facts.id).toBe('self-registration-code-value');
    expect(document.getElementById('self-registration-option')?.textContent).toBe('On');
    expect(document.getElementById('self-registration-locked')?.textContent).toContain('2');
    expect(within(section).getByText('Unlock a card on its account’s page.', { exact: false })).toBeDefined();
    const field = within(section).getByLabelText('Company code (6 to 10 digits)') as HTMLInputElement;
    expect(field.id).toBe('self-registration-code');
    expect(field.getAttribute('inputmode')).toBe('numeric');
    expect(field.getAttribute('autocomplete')).toBe('off');
    fireEvent.change(field, { target: { value: '12345678' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save code' }));
    expect(await within(section).findByText('Company code saved.')).toBeDefined();
    expect(document.getElementById('self-registration-done')?.getAttribute('role')).toBe('status');
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe(`${base}/self-registration`);
    expect(put?.body).toEqual({ code: '12345678' });
    expect(put?.headers.get('X-CSRF-TOKEN')).toBe('tok123');
    expect(document.getElementById('self-registration-code-value')?.textContent).toBe('12345678');
    expect(field.value).toBe('');
  });

  it('refuses a code of other than 6 to 10 digits before sending, and shows a code taken on its field', async () => {
    const calls = acme((call) =>
      call.method === 'PUT'
        ? {
            status: 409,
            body: {
              code: 'registrationCode.taken',
              message: '',
              fieldErrors: { code: 'registrationCode.taken' },
            },
          }
        : undefined,
    );
    renderApp('/organisation/100001');
    const field = (await screen.findByLabelText('Company code (6 to 10 digits)')) as HTMLInputElement;
    fireEvent.change(field, { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save code' }));
    expect(await screen.findByText(problemTextOf('registrationCode.format'))).toBeDefined();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(field, { target: { value: '9876543' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save code' }));
    expect(await screen.findByText(problemTextOf('registrationCode.taken'))).toBeDefined();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById('self-registration-code-value')?.textContent).toBe('4711001');
  });

  it('removes the code (null) and then offers no removal', async () => {
    const calls = acme((call) =>
      call.method === 'PUT' && call.url === `${base}/self-registration`
        ? { body: selfRegistration({ code: null }) }
        : undefined,
    );
    renderApp('/organisation/100001');
    const remove = await screen.findByRole('button', { name: 'Remove code' });
    expect(remove.id).toBe('self-registration-remove');
    fireEvent.click(remove);
    expect(await screen.findByText('Company code removed.')).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ code: null });
    expect(document.getElementById('self-registration-code-value')?.textContent).toBe(
      'None: cardholders cannot register',
    );
    expect(document.getElementById('self-registration-remove')).toBeNull();
  });

  it('is read-only for a system administrator', async () => {
    acme((call) =>
      call.url === `${base}/self-registration` ? { body: selfRegistration({ enabled: false }) } : undefined,
    );
    renderApp('/organisation/100001', makeContext('Z'));
    const facts = await screen.findByText('Off: cardholders cannot register');
    expect(facts.id).toBe('self-registration-option');
    expect(screen.getByText('4711001')).toBeDefined();
    expect(screen.queryByLabelText('Company code (6 to 10 digits)')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save code' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove code' })).toBeNull();
  });

  it('is not shown to a caller who may not see it', async () => {
    const calls = acme();
    renderApp('/organisation/100001', makeContext('O'));
    await screen.findByRole('list', { name: 'Reporting structure of Acme Industries' });
    expect(screen.queryByRole('region', { name: 'Cardholder self-registration' })).toBeNull();
    expect(calls.some((c) => c.url.endsWith('/self-registration'))).toBe(false);
  });
});
