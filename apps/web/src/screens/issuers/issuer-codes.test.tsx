import type { IssuerCode, IssuerCodeList } from '@cardportal/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeContext, mockFetch, renderApp } from '../../test/support.tsx';

/** An issuer's code lists (dispute reasons, account status codes, maintenance reasons), against a mocked API. */

const byId = (id: string) => document.getElementById(id) as HTMLElement;
const type = (id: string, value: string) => fireEvent.change(byId(id), { target: { value } });

function serve(list: IssuerCodeList['list'], start: IssuerCode[]) {
  let rows = [...start];
  const base = `/app/api/org/issuers/1001/${list}`;
  const answer = () => ({ body: { list, rows, canMaintain: true, max: 99 } });
  const calls = mockFetch((call) => {
    if (call.url === '/sdportal/rest/csrf') return { status: 204 };
    if (call.url === base && call.method === 'POST') {
      rows = [...rows, call.body as IssuerCode];
      return answer();
    }
    const code = call.url.startsWith(`${base}/`)
      ? decodeURIComponent(call.url.slice(base.length + 1))
      : undefined;
    if (code && call.method === 'PUT') {
      rows = rows.map((r) => (r.code === code ? { ...r, ...(call.body as Partial<IssuerCode>) } : r));
      return answer();
    }
    if (code && call.method === 'DELETE') {
      rows = rows.filter((r) => r.code !== code);
      return answer();
    }
    if (call.url === base) return answer();
    return undefined;
  });
  return calls;
}

describe('Issuer code lists', () => {
  it('dispute reasons: lists, adds by the catalogue rules, changes and deletes', async () => {
    const calls = serve('dispute-reasons', [
      { code: 'DP', description: 'Duplicate charge', systemStatus: null },
      { code: 'NR', description: 'Goods or services not received', systemStatus: null },
    ]);
    renderApp('/issuers/1001/dispute-reasons', makeContext('I'));
    expect(
      await screen.findByRole('heading', { name: 'Dispute reasons of issuer 1001', level: 1 }),
    ).toBeDefined();
    const table = await screen.findByRole('table', { name: 'Codes (2 of 99)' });
    expect(within(table).getByText('Duplicate charge')).toBeDefined();
    expect(screen.queryByLabelText('System status')).toBeNull();
    type('issuer-code-code', 'A B');
    fireEvent.click(byId('issuer-code-add-submit'));
    expect(await screen.findByText('A code has at most 2 characters and no spaces.')).toBeDefined();
    type('issuer-code-code', 'ia');
    type('issuer-code-description', 'Incorrect amount charged');
    fireEvent.click(byId('issuer-code-add-submit'));
    expect(await screen.findByText('Code IA has been added.')).toBeDefined();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      code: 'IA',
      description: 'Incorrect amount charged',
      systemStatus: null,
    });

    fireEvent.click(screen.getByRole('button', { name: 'Actions for code DP' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Change' }));
    type('issuer-code-change-description', 'Paid twice');
    fireEvent.click(byId('issuer-code-change-submit'));
    expect(await screen.findByText('Code DP has been changed.')).toBeDefined();

    fireEvent.click(screen.getByRole('button', { name: 'Actions for code NR' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete code NR?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Code NR has been deleted.')).toBeDefined();
    expect(screen.queryByText('Goods or services not received')).toBeNull();
  });

  it('account status codes: each names the system status it sets', async () => {
    const calls = serve('account-status-codes', [
      { code: 'LS', description: 'Lost or stolen', systemStatus: 'C' },
    ]);
    renderApp('/issuers/1001/account-status-codes', makeContext('H'));
    const table = await screen.findByRole('table', { name: 'Codes (1 of 99)' });
    expect(within(table).getByText('C – Closed')).toBeDefined();
    type('issuer-code-code', 'FR');
    type('issuer-code-description', 'Suspected fraud');
    fireEvent.click(byId('issuer-code-add-submit'));
    expect(await screen.findByText('Choose the system status the code sets (A, S or C).')).toBeDefined();
    fireEvent.change(screen.getByLabelText('System status'), { target: { value: 'S' } });
    fireEvent.click(byId('issuer-code-add-submit'));
    expect(await screen.findByText('Code FR has been added.')).toBeDefined();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      code: 'FR',
      description: 'Suspected fraud',
      systemStatus: 'S',
    });
  });
});
