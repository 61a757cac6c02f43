import type { RealCardList, RealCardSummary } from '@cardportal/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeContext, mockFetch, problemTextOf, renderApp } from '../../test/support.tsx';

const BASE = '/app/api/org/companies/100001/real-cards';

const card = (over: Partial<RealCardSummary> = {}): RealCardSummary => ({
  id: 1,
  alias: 'Travel lodge card',
  maskedNumber: '542418******0019',
  last4: '0019',
  active: true,
  accountStatus: 'Active',
  accountId: 40,
  inUse: true,
  ...over,
});

const list = (rows: RealCardSummary[], over: Partial<RealCardList> = {}): RealCardList => ({
  rows,
  total: rows.length,
  nextCursor: null,
  prevCursor: null,
  pageCount: 1,
  pageSize: 25,
  canModify: true,
  readOnly: false,
  ...over,
});

/** A Luhn-valid number whose digits 7–12 are 000000. */
const NUMBER = '5424 1800 0000 0015';

/** Chooses a real card's action from its row's menu ("Actions for {alias}"). */
async function cardAction(alias: string, action: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${alias}` }));
  const menu = await screen.findByRole('menu');
  fireEvent.click(within(menu).getByRole('menuitem', { name: action }));
}

describe('Real cards', () => {
  it('adds a card: number and alias checked first (the alias against the number), the server’s refusal on its field', async () => {
    let rows = [card()];
    const calls = mockFetch((call) => {
      if (call.url.startsWith(BASE) && call.method === 'GET') return { body: list(rows) };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.url === BASE && call.method === 'POST') {
        const body = call.body as { alias: string };
        if (body.alias === 'Travel Lodge Card')
          return {
            status: 409,
            body: {
              code: 'card.alias.duplicate',
              message: '',
              fieldErrors: { alias: 'card.alias.duplicate' },
            },
          };
        const added = card({ id: 2, alias: body.alias, maskedNumber: '542418******0015', inUse: false });
        rows = [...rows, added];
        return { status: 201, body: added };
      }
      return undefined;
    });
    renderApp('/organisation/100001/real-cards');
    expect(await screen.findByRole('table', { name: 'Real cards' })).toBeDefined();
    const tabs = screen.getByRole('navigation', { name: 'Sections of company 100001' });
    expect(within(tabs).getByRole('link', { name: 'Real cards' }).getAttribute('aria-current')).toBe('page');
    const number = screen.getByLabelText('Card number', { selector: 'input' });
    const alias = screen.getByLabelText('Alias', { selector: 'input' });
    fireEvent.change(number, { target: { value: NUMBER } });
    fireEvent.change(alias, { target: { value: 'Card 000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add the real card' }));
    expect(await screen.findByText(problemTextOf('card.alias.containsNumber'))).toBeDefined();
    fireEvent.change(alias, { target: { value: NUMBER } });
    fireEvent.click(screen.getByRole('button', { name: 'Add the real card' }));
    expect(await screen.findByText(problemTextOf('card.alias.isNumber'))).toBeDefined();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(alias, { target: { value: 'Travel Lodge Card' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add the real card' }));
    expect(await screen.findByText(problemTextOf('card.alias.duplicate'))).toBeDefined();
    fireEvent.change(alias, { target: { value: 'Office supplies' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add the real card' }));
    expect(await screen.findByText('The real card has been added.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      number: NUMBER,
      alias: 'Office supplies',
    });
    expect(await screen.findByRole('rowheader', { name: 'Office supplies' })).toBeDefined();
    expect((number as HTMLInputElement).value).toBe('');
  });

  it('deletes one nothing refers to, and says so when one in use is marked inactive instead', async () => {
    let rows = [card(), card({ id: 2, alias: 'Spare', inUse: false, accountId: 41 })];
    const calls = mockFetch((call) => {
      if (call.url.startsWith(BASE) && call.method === 'GET') return { body: list(rows) };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.method === 'DELETE' && call.url === `${BASE}/2`) {
        rows = rows.filter((r) => r.id !== 2);
        return { body: { outcome: 'deleted', realCard: null } };
      }
      if (call.method === 'DELETE' && call.url === `${BASE}/1`) {
        rows = [card({ active: false })];
        return { body: { outcome: 'deactivated', realCard: rows[0] } };
      }
      return undefined;
    });
    renderApp('/organisation/100001/real-cards');
    await cardAction('Spare', 'Delete');
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete real card Spare' });
    expect(within(dialog).getByText(/The real card and its card account are deleted/)).toBeDefined();
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(await screen.findByText('The real card has been deleted.')).toBeDefined();

    await cardAction('Travel lodge card', 'Delete');
    expect(within(await screen.findByRole('alertdialog')).getByText(/marked inactive instead/)).toBeDefined();
    fireEvent.click(document.getElementById('confirm-ok') as HTMLElement);
    expect(
      await screen.findByText(
        'Transactions refer to the real card: it has been marked inactive instead of deleted.',
      ),
    ).toBeDefined();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`${BASE}/2`, `${BASE}/1`]);
    await waitFor(() =>
      expect(screen.getByRole('row', { name: /Travel lodge card/ }).textContent).toContain('Inactive'),
    );
    await cardAction('Travel lodge card', 'Reactivate');
    expect(
      await screen.findByRole('alertdialog', { name: 'Reactivate real card Travel lodge card' }),
    ).toBeDefined();
  });

  it('renames in the row: the server checks the alias against the card’s number', async () => {
    const calls = mockFetch((call) => {
      if (call.url.startsWith(BASE) && call.method === 'GET') return { body: list([card()]) };
      if (call.url === '/sdportal/rest/csrf') return { status: 204 };
      if (call.method === 'PATCH')
        return (call.body as { alias: string }).alias.includes('1800')
          ? {
              status: 400,
              body: {
                code: 'card.alias.containsNumber',
                message: '',
                fieldErrors: { alias: 'card.alias.containsNumber' },
              },
            }
          : { body: card({ alias: (call.body as { alias: string }).alias }) };
      return undefined;
    });
    renderApp('/organisation/100001/real-cards');
    await cardAction('Travel lodge card', 'Rename');
    const field = await screen.findByLabelText('Change the alias of Travel lodge card', {
      selector: 'input',
    });
    fireEvent.change(field, { target: { value: 'Lodge 180000' } });
    fireEvent.click(document.getElementById('real-card-rename-1-submit') as HTMLElement);
    expect(await screen.findByText(problemTextOf('card.alias.containsNumber'))).toBeDefined();
    fireEvent.change(field, { target: { value: 'Lodge card' } });
    fireEvent.click(document.getElementById('real-card-rename-1-submit') as HTMLElement);
    expect(await screen.findByText('The alias has been changed.')).toBeDefined();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { alias: 'Lodge 180000' },
      { alias: 'Lodge card' },
    ]);
  });

  it('is read-only for a system administrator', async () => {
    mockFetch((call) =>
      call.url.startsWith(BASE) ? { body: list([card()], { canModify: false, readOnly: true }) } : undefined,
    );
    renderApp('/organisation/100001/real-cards', makeContext('Z'));
    expect(await screen.findByRole('table', { name: 'Real cards' })).toBeDefined();
    expect(document.getElementById('read-only-notice')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Add the real card' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Actions for / })).toBeNull();
  });
});
