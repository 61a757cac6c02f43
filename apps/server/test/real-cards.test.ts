/**
 * Real cards (issue 15 item 1, seed 001 "Real card maintenance with alias"): a company's card account
 * without a cardholder, issued by the account rule and known by an alias that is never the number and
 * never holds its positions 7–12; unique per company; renamed against the sealed number; in use
 * (transactions posted to it) it is marked inactive instead of deleted; its transactions show the alias.
 */
import type {
  RealCardDeleteResult,
  RealCardList,
  RealCardSummary,
  TransactionList,
} from '@cardportal/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditEvents, realCards } from '../src/db/schema.ts';
import { importTransactions } from '../src/modules/transactions/index.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { cardNumber, signedInClients } from './support/clients.ts';

let ctx: TestContext;
const { send, get } = signedInClients(() => ctx);
const luhn = (prefix: string, seed: number) => cardNumber(prefix, seed);

const BASE = '/app/api/org/companies/100001/real-cards';

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('real cards', () => {
  it('issues the card account without a cardholder, names it, masks it and audits it', async () => {
    const number = luhn('542418', 101);
    const created = await send('admin01', 'POST', BASE, { number, alias: '  Hotel lodge card ' });
    expect(created.statusCode, created.body).toBe(201);
    const card = created.json() as RealCardSummary;
    expect(card).toMatchObject({
      alias: 'Hotel lodge card',
      maskedNumber: `542418******${number.slice(-4)}`,
      active: true,
      accountStatus: 'Active',
      inUse: false,
    });
    expect(created.body).not.toContain(number);
    const [account] = await ctx.services.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, card.accountId));
    expect(account?.cardholderId).toBeNull();
    expect(JSON.stringify(account)).not.toContain(number);
    const [audit] = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'realCard.created'));
    expect(audit?.entityId).toBe(card.maskedNumber);
    expect(JSON.stringify(audit)).not.toContain(number);

    const list = (await get('issadmin01', `${BASE}?q=lodge`)).json() as RealCardList;
    expect(list.rows.map((r) => r.alias)).toEqual(['Hotel lodge card', 'Travel lodge card']);
    expect(list.canModify).toBe(true);
    const byLastFour = (await get('admin01', `${BASE}?q=${number.slice(-4)}`)).json() as RealCardList;
    expect(byLastFour.rows.map((r) => r.id)).toContain(card.id);
    const readOnly = (await get('sysadmin01', BASE)).json() as RealCardList;
    expect([readOnly.readOnly, readOnly.canModify]).toEqual([true, false]);
  });

  it('refuses an alias that is the number, holds its digits 7–12 or another card number, or is taken', async () => {
    const number = luhn('542418', 202);
    const middle = number.slice(6, 12);
    const cases: [unknown, number, string, string][] = [
      [{ number, alias: number }, 400, 'card.alias.isNumber', 'alias'],
      [
        { number, alias: `Card ${middle.slice(0, 3)}-${middle.slice(3)}` },
        400,
        'card.alias.containsNumber',
        'alias',
      ],
      [{ number, alias: 'Copy of 4111 1111 1111 1111' }, 400, 'text.cardNumber', 'alias'],
      [{ number, alias: ' ' }, 400, 'card.alias.required', 'alias'],
      [{ number, alias: 'x'.repeat(41) }, 400, 'card.alias.tooLong', 'alias'],
      [{ number, alias: 'HOTEL LODGE CARD' }, 409, 'card.alias.duplicate', 'alias'],
      [
        { number: `${number.slice(0, -1)}${(Number(number.slice(-1)) + 1) % 10}`, alias: 'Fuel' },
        400,
        'account.number.luhn',
        'number',
      ],
      [{ alias: 'Fuel' }, 400, 'form.invalid', 'number'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await send('admin01', 'POST', BASE, body);
      expect(
        [res.statusCode, res.json().code, Object.keys(res.json().fieldErrors ?? {})],
        JSON.stringify(body),
      ).toEqual([status, status === 400 && code === 'form.invalid' ? 'form.invalid' : code, [field]]);
    }
    // Nothing was half-written: no account without its real card.
    const result = await ctx.services.database.db.execute(
      sql`select count(*)::int as n from accounts a where a.cardholder_id is null
        and not exists (select 1 from real_cards r where r.account_id = a.id)`,
    );
    const rows =
      (result as unknown as { rows?: { n: number }[] }).rows ?? (result as unknown as { n: number }[]);
    expect(rows[0]?.n).toBe(0);
    // The same number as an issued account: a duplicate.
    const first = await send('admin01', 'POST', BASE, { number, alias: 'Fuel card' });
    expect(first.statusCode, first.body).toBe(201);
    const again = await send('admin01', 'POST', BASE, { number, alias: 'Fuel card 2' });
    expect([again.statusCode, again.json().code]).toEqual([409, 'account.number.duplicate']);
  });

  it('renames against the sealed number, (de)activates, and answers 404 outside the scope', async () => {
    const number = luhn('542418', 303);
    const card = (
      await send('admin01', 'POST', BASE, { number, alias: 'Supplies' })
    ).json() as RealCardSummary;
    const url = `${BASE}/${card.id}`;
    const hidden = await send('admin01', 'PATCH', url, { alias: `Supplies ${number.slice(6, 12)}` });
    expect([hidden.statusCode, hidden.json().code]).toEqual([400, 'card.alias.containsNumber']);
    const whole = await send('admin01', 'PATCH', url, { alias: number });
    expect(whole.json().code).toBe('card.alias.isNumber');
    const renamed = await send('admin01', 'PATCH', url, { alias: 'Office supplies' });
    expect([renamed.statusCode, (renamed.json() as RealCardSummary).alias]).toEqual([200, 'Office supplies']);
    const off = await send('admin01', 'PUT', `${url}/status`, { active: false });
    expect((off.json() as RealCardSummary).active).toBe(false);
    const inactive = (await get('admin01', `${BASE}?status=inactive`)).json() as RealCardList;
    expect(inactive.rows.map((r) => r.id)).toContain(card.id);
    const on = await send('admin01', 'PUT', `${url}/status`, { active: true });
    expect((on.json() as RealCardSummary).active).toBe(true);

    const events = await ctx.services.database.db
      .select({ event: auditEvents.event, changes: auditEvents.changes })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, card.maskedNumber));
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'realCard.created',
        'realCard.updated',
        'realCard.deactivated',
        'realCard.reactivated',
      ]),
    );

    const cases: [string, 'GET' | 'PATCH', string, number, string][] = [
      ['bncadmin01', 'GET', url, 404, 'company.notFound'],
      ['admin01', 'GET', `${BASE}/999999`, 404, 'realCard.notFound'],
      ['admin01', 'GET', `${BASE}/abc`, 404, 'realCard.notFound'],
      ['sysadmin01', 'PATCH', url, 403, 'company.readOnly'],
      ['active01', 'GET', url, 403, 'permission.denied'],
      ['agmgr01', 'GET', url, 403, 'permission.denied'],
    ];
    for (const [userId, method, where, status, code] of cases) {
      const res =
        method === 'GET' ? await get(userId, where) : await send(userId, method, where, { alias: 'X1' });
      expect([res.statusCode, res.json().code], `${userId} ${method} ${where}`).toEqual([status, code]);
    }
    expect((await get('admin01', `${BASE}?q=a`)).json().code).toBe('search.tooShort');
    expect((await get('admin01', `${BASE}?status=maybe`)).statusCode).toBe(400);
  });

  it('deletes an unused card with its account; one in use is marked inactive and its transactions show the alias', async () => {
    const unusedNumber = luhn('542418', 404);
    const unused = (
      await send('admin01', 'POST', BASE, { number: unusedNumber, alias: 'Spare' })
    ).json() as RealCardSummary;
    const gone = await send('admin01', 'DELETE', `${BASE}/${unused.id}`);
    expect(gone.json() as RealCardDeleteResult).toEqual({ outcome: 'deleted', realCard: null });
    expect(
      await ctx.services.database.db.select().from(accounts).where(eq(accounts.id, unused.accountId)),
    ).toEqual([]);
    expect((await get('admin01', `${BASE}/${unused.id}`)).statusCode).toBe(404);
    // Deleted, the number may be issued again.
    expect(
      (await send('admin01', 'POST', BASE, { number: unusedNumber, alias: 'Spare again' })).statusCode,
    ).toBe(201);

    const number = luhn('542418', 505);
    const card = (
      await send('admin01', 'POST', BASE, { number, alias: 'Fleet fuel' })
    ).json() as RealCardSummary;
    const report = await importTransactions(
      ctx.services.database,
      ctx.services.secrets.cards,
      [
        'reference,account_number,transaction_date,posting_date,merchant_name,merchant_city,merchant_country,mcc,amount,currency,tax_amount\r\n',
        `RC-1,${number},2026-11-02,2026-11-03,Shell,Hamburg,DE,5541,88.40,EUR,0\r\n`,
      ],
      { format: 'csv', fileName: 'real-card.csv', issuerNumber: undefined, byUserPk: null },
    );
    expect(report.outcome, JSON.stringify(report)).toBe('imported');

    const shown = (
      await get('admin01', `/app/api/transactions?account=${card.accountId}`)
    ).json() as TransactionList;
    const row = shown.rows.find((r) => r.account.id === card.accountId);
    expect(row?.account).toMatchObject({ alias: 'Fleet fuel', cardholderName: '' });

    const kept = await send('admin01', 'DELETE', `${BASE}/${card.id}`);
    const answer = kept.json() as RealCardDeleteResult;
    expect([kept.statusCode, answer.outcome, answer.realCard?.active, answer.realCard?.inUse]).toEqual([
      200,
      'deactivated',
      false,
      true,
    ]);
    const [stillThere] = await ctx.services.database.db
      .select()
      .from(realCards)
      .where(eq(realCards.id, card.id));
    expect(stillThere?.active).toBe(false);
  });
});
