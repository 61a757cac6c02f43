import type {
  AccountingCode,
  AccountingCodeList,
  AccountingValue,
  AccountingValueList,
} from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

const BASE = '/app/api/org/companies/100001/accounting-codes';

const code = (over: Partial<AccountingCode> = {}): AccountingCode => ({
  id: 1,
  name: 'GL account',
  position: 1,
  kind: 'list',
  entry: 'list',
  effectiveEntry: 'list',
  maxLength: 25,
  dependsOn: null,
  active: true,
  valueCount: 2,
  ...over,
});

const codeList = (rows: AccountingCode[], over: Partial<AccountingCodeList> = {}): AccountingCodeList => ({
  rows,
  canModify: true,
  readOnly: false,
  remaining: 20 - rows.length,
  ...over,
});

const value = (over: Partial<AccountingValue> = {}): AccountingValue => ({
  id: 10,
  value: '6100',
  description: 'Travel',
  parent: null,
  active: true,
  ...over,
});

async function rowAction(name: string, action: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  const menu = await screen.findByRole('menu');
  fireEvent.click(within(menu).getByRole('menuitem', { name: action }));
}

describe('Accounting codes', () => {
  it('adds a text code with its length, offers list codes only as dependencies, and puts the server’s refusal on its field', async () => {
    let rows = [
      code(),
      code({
        id: 2,
        name: 'Memo',
        kind: 'text',
        entry: 'entry',
        effectiveEntry: 'entry',
        maxLength: 12,
        position: 2,
        valueCount: 0,
      }),
    ];
    const calls = mockFetch((call) => {
      if (call.url === BASE && call.method === 'GET') return { body: codeList(rows) };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === BASE && call.method === 'POST') {
        const body = call.body as { name: string; kind: 'list' | 'text'; maxLength?: number };
        if (body.name === 'GL account')
          return {
            status: 400,
            body: {
              code: 'accountingCode.name.duplicate',
              message: '',
              fieldErrors: { name: 'accountingCode.name.duplicate' },
            },
          };
        const added = code({
          id: 3,
          name: body.name,
          kind: body.kind,
          maxLength: body.maxLength ?? 25,
          position: 3,
        });
        rows = [...rows, added];
        return { status: 201, body: added };
      }
      return undefined;
    });
    renderApp('/organisation/100001/accounting-codes');
    const table = await screen.findByRole('table', { name: 'Accounting codes' });
    expect(within(table).getByRole('link', { name: 'Values of GL account' })).toBeDefined();
    const tabs = screen.getByRole('navigation', { name: 'Sections of company 100001' });
    expect(within(tabs).getByRole('link', { name: 'Accounting codes' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(screen.getByText('18 more codes can be added.')).toBeDefined();

    // A list code's dependency offers the list codes only (not the text code "Memo").
    const dependsOn = screen.getByLabelText('Depends on', { selector: 'select' }) as HTMLSelectElement;
    expect([...dependsOn.options].map((o) => o.text)).toEqual(['None', 'GL account']);

    const name = screen.getByLabelText('Name', { selector: 'input' });
    fireEvent.change(name, { target: { value: 'GL account' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add code' }));
    expect(await screen.findByText(problemTextOf('accountingCode.name.duplicate'))).toBeDefined();

    fireEvent.change(screen.getByLabelText('Type', { selector: 'select' }), { target: { value: 'text' } });
    const length = await screen.findByLabelText('Length', { selector: 'input' });
    expect(screen.queryByLabelText('Depends on', { selector: 'select' })).toBeNull();
    fireEvent.change(length, { target: { value: '30' } });
    fireEvent.change(name, { target: { value: 'Project' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add code' }));
    expect(await screen.findByText(problemTextOf('accountingCode.maxLength.range'))).toBeDefined();
    fireEvent.change(length, { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add code' }));
    expect(await screen.findByText('The accounting code has been added.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      name: 'Project',
      kind: 'text',
      entry: 'list',
      maxLength: 12,
      dependsOn: null,
    });
  });

  it('moves a code down and deletes one after confirming', async () => {
    const rows = [code(), code({ id: 2, name: 'Cost centre', position: 2 })];
    const calls = mockFetch((call) => {
      if (call.url === BASE && call.method === 'GET') return { body: codeList(rows) };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.method === 'PATCH') return { body: code({ position: 2 }) };
      if (call.method === 'DELETE') return { status: 204 };
      return undefined;
    });
    renderApp('/organisation/100001/accounting-codes');
    await rowAction('GL account', 'Move down');
    expect(await screen.findByText('The accounting code has been moved.')).toBeDefined();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      url: `${BASE}/1`,
      body: { position: 2 },
    });
    await rowAction('Cost centre', 'Delete');
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete accounting code Cost centre' });
    expect(within(dialog).getByText(/all its values are removed/)).toBeDefined();
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText('The accounting code has been deleted.')).toBeDefined();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === `${BASE}/2`)).toBe(true);
  });
});

describe('Accounting codes, read-only', () => {
  it('shows the system administrator the codes with the notice, and nothing to change them with', async () => {
    mockFetch((call) =>
      call.url === BASE ? { body: codeList([code()], { canModify: false, readOnly: true }) } : undefined,
    );
    renderApp('/organisation/100001/accounting-codes');
    expect(await screen.findByRole('table', { name: 'Accounting codes' })).toBeDefined();
    expect(document.getElementById('read-only-notice')).not.toBeNull();
    expect(screen.queryByRole('heading', { name: 'Add an accounting code' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Actions for GL account' })).toBeNull();
  });
});

describe('Accounting code values', () => {
  const valueList = (
    rows: AccountingValue[],
    over: Partial<AccountingValueList> = {},
  ): AccountingValueList => ({
    code: code({ id: 3, name: 'Sub-account', dependsOn: { id: 1, name: 'GL account' } }),
    rows,
    nextCursor: null,
    prevCursor: null,
    searchRequired: false,
    pageSize: 25,
    canModify: true,
    readOnly: false,
    ...over,
  });

  it('adds a dependent value under its parent value and shows the parent in the list', async () => {
    let rows = [
      value({
        id: 20,
        value: 'AIR',
        description: 'Air fares',
        parent: { id: 10, value: '6100', description: 'Travel' },
      }),
    ];
    const calls = mockFetch((call) => {
      if (call.url.startsWith(`${BASE}/3/values`) && call.method === 'GET') return { body: valueList(rows) };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === `${BASE}/3/values` && call.method === 'POST') {
        const body = call.body as { value: string; parent: string };
        if (body.parent === '9999')
          return {
            status: 400,
            body: {
              code: 'accountingValue.parent.unknown',
              message: '',
              fieldErrors: { parent: 'accountingValue.parent.unknown' },
            },
          };
        const added = value({
          id: 21,
          value: body.value,
          description: '',
          parent: { id: 10, value: '6100', description: 'Travel' },
        });
        rows = [...rows, added];
        return { status: 201, body: added };
      }
      return undefined;
    });
    renderApp('/organisation/100001/accounting-codes/3');
    const table = await screen.findByRole('table', { name: 'Values of Sub-account' });
    expect(within(table).getByText('6100 – Travel')).toBeDefined();
    expect(screen.getByText('Each value belongs to a value of GL account.')).toBeDefined();
    fireEvent.change(screen.getByLabelText('Code', { selector: 'input' }), { target: { value: '0000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add value' }));
    expect(await screen.findByText(problemTextOf('accountingValue.value.allZeros'))).toBeDefined();
    fireEvent.change(screen.getByLabelText('Code', { selector: 'input' }), { target: { value: 'HOTEL' } });
    fireEvent.change(screen.getByLabelText('Belongs to (GL account)', { selector: 'input' }), {
      target: { value: '9999' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add value' }));
    expect(await screen.findByText(problemTextOf('accountingValue.parent.unknown'))).toBeDefined();
    fireEvent.change(screen.getByLabelText('Belongs to (GL account)', { selector: 'input' }), {
      target: { value: '6100' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add value' }));
    expect(await screen.findByText('The value has been added.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      value: 'HOTEL',
      description: '',
      parent: '6100',
    });
    await waitFor(() =>
      expect(within(screen.getByRole('table')).getByRole('rowheader', { name: 'HOTEL' })).toBeDefined(),
    );
  });

  it('asks for a search when the code holds more than 10,000 values, and searches', async () => {
    const calls = mockFetch((call) => {
      if (call.url.startsWith(`${BASE}/3/values`) && call.method === 'GET')
        return call.url.includes('q=')
          ? { body: valueList([value({ value: 'P09990', description: 'Project 9990' })]) }
          : {
              body: valueList([], {
                searchRequired: true,
                code: code({ id: 3, name: 'Project', valueCount: 10_001, effectiveEntry: 'entry' }),
              }),
            };
      return undefined;
    });
    renderApp('/organisation/100001/accounting-codes/3');
    expect(
      await screen.findByText('This code has more than 10,000 values: search to see them.'),
    ).toBeDefined();
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.change(screen.getByLabelText('Code or description starts with'), {
      target: { value: 'P0999' },
    });
    fireEvent.click(document.getElementById('value-search-submit') as HTMLElement);
    expect(await screen.findByRole('rowheader', { name: 'P09990' })).toBeDefined();
    expect(calls.some((c) => c.url.endsWith('values?q=P0999'))).toBe(true);
  });
});

describe('Accounting schemes and account coding', () => {
  const codes = codeList([
    code({ id: 1, name: 'Cost centre' }),
    code({ id: 2, name: 'GL account', position: 2 }),
  ]);
  const subsets = {
    rows: [
      {
        id: 7,
        name: 'Travel costs',
        code: { id: 2, name: 'GL account' },
        values: [{ id: 1, value: '6100', description: 'Travel' }],
        usedBy: [],
      },
    ],
    canModify: true,
    readOnly: false,
  };

  it('builds a scheme line by line: a code, required, who may change it, a subset of that code', async () => {
    const calls = mockFetch((call) => {
      if (call.url.endsWith('/accounting-codes')) return { body: codes };
      if (call.url.endsWith('/accounting-subsets')) return { body: subsets };
      if (call.url.endsWith('/accounting-groups'))
        return {
          body: {
            rows: [{ groupId: 3, name: 'Travel', active: true, scheme: null }],
            canModify: true,
            readOnly: false,
          },
        };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url.endsWith('/accounting-schemes') && call.method === 'GET')
        return { body: { rows: [], canModify: true, readOnly: false } };
      if (call.url.endsWith('/accounting-schemes') && call.method === 'POST')
        return {
          status: 201,
          body: { id: 9, name: 'Travel', isDefault: false, lines: [], accounts: 0, groups: 0 },
        };
      return undefined;
    });
    renderApp('/organisation/100001/accounting-schemes');
    const name = await screen.findByLabelText('Name', { selector: '#scheme-create-name' });
    fireEvent.change(name, { target: { value: 'Travel' } });
    // The codes arrive with the form's own query.
    await screen.findAllByRole('option', { name: 'Cost centre' });
    fireEvent.change(document.getElementById('scheme-create-lines-0-code') as HTMLElement, {
      target: { value: '1' },
    });
    fireEvent.click(document.getElementById('scheme-create-lines-0-required') as HTMLElement);
    fireEvent.click(screen.getByRole('button', { name: 'Add a code' }));
    const second = await waitFor(() => {
      const el = document.getElementById('scheme-create-lines-1-code');
      if (!el) throw new Error('no second line yet');
      return el;
    });
    fireEvent.change(second, { target: { value: '2' } });
    // The subset choice appears for the list code, offering that code's subsets only.
    const subset = await waitFor(() => {
      const el = document.getElementById('scheme-create-lines-1-subset') as HTMLSelectElement | null;
      if (!el) throw new Error('no subset choice yet');
      return el;
    });
    expect([...subset.options].map((o) => o.text)).toEqual(['All values', 'Travel costs']);
    fireEvent.change(subset, { target: { value: '7' } });
    fireEvent.change(document.getElementById('scheme-create-lines-1-override') as HTMLElement, {
      target: { value: 'manager' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add scheme' }));
    expect(await screen.findByText('The scheme has been added.')).toBeDefined();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Travel',
      isDefault: false,
      lines: [
        { codeId: 1, required: true, override: 'cardholder', subsetId: null },
        { codeId: 2, required: false, override: 'manager', subsetId: 7 },
      ],
    });
    expect(screen.getByLabelText('Scheme of Travel')).toBeDefined();
  });

  it("saves an account's defaults for the codes of the scheme that will apply", async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url.endsWith('/accounting-schemes'))
        return {
          body: {
            rows: [
              {
                id: 5,
                name: 'Standard',
                isDefault: true,
                lines: [
                  {
                    code: { id: 1, name: 'Cost centre' },
                    required: true,
                    override: 'cardholder',
                    subset: null,
                  },
                ],
                accounts: 0,
                groups: 0,
              },
            ],
            canModify: true,
            readOnly: false,
          },
        };
      if (call.url.endsWith('/accounts/40/coding'))
        return {
          body: {
            accountId: 40,
            ownScheme: null,
            inheritedScheme: { id: 5, name: 'Standard' },
            scheme: { id: 5, name: 'Standard' },
            source: 'default',
            defaults: [
              { code: { id: 1, name: 'Cost centre' }, kind: 'list', value: null, description: null },
            ],
            canModify: true,
            readOnly: false,
          },
        };
      return undefined;
    });
    renderApp('/organisation/100001/accounts/40/coding');
    expect(await screen.findByText("Standard (the company's default)")).toBeDefined();
    fireEvent.change(await screen.findByLabelText('Cost centre', { selector: 'input' }), {
      target: { value: '4100' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("The account's coding has been saved.")).toBeDefined();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      schemeId: null,
      defaults: { '1': '4100' },
    });
  });
});

describe('Accounting code values as a file', () => {
  it('links the downloads, checks the file first, and lists a refused file’s rows', async () => {
    const list = {
      code: code({ id: 3, name: 'Cost centre' }),
      rows: [value()],
      nextCursor: null,
      prevCursor: null,
      searchRequired: false,
      pageSize: 25,
      canModify: true,
      readOnly: false,
    };
    const calls = mockFetch((call) => {
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url.startsWith(`${BASE}/3/values`) && call.method === 'GET') return { body: list };
      if (call.url === `${BASE}/3/values/upload`)
        return {
          status: 422,
          body: {
            code: 'upload.rows',
            message: '',
            rows: [{ row: 3, field: 'value', problem: 'accountingValue.value.allZeros' }],
          },
        };
      return undefined;
    });
    renderApp('/organisation/100001/accounting-codes/3');
    const csv = (await screen.findByRole('link', { name: 'Download CSV' })) as HTMLAnchorElement;
    expect(csv.getAttribute('href')).toBe(`${BASE}/3/values.csv`);
    expect(screen.getByRole('link', { name: 'Download Excel' }).getAttribute('href')).toBe(
      `${BASE}/3/values.xlsx`,
    );
    const input = screen.getByLabelText('File of values') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'values.pdf')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Invalid or Unsupported File Format')).toBeDefined();
    expect(calls.some((c) => c.url.endsWith('/upload'))).toBe(false);
    fireEvent.change(input, { target: { files: [new File(['value\n4100\n000\n'], 'values.csv')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const report = await screen.findByRole('table', { name: /The file has errors/ });
    expect(within(report).getByText('Code cannot be all zeros.')).toBeDefined();
  });
});
