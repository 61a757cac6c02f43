/**
 * Issuing card accounts in the application (issue 15 item 1): the number by the one rule (12–19 digits,
 * Luhn, within the issuer's card BINs, not issued before — found by keyed hash), sealed at rest, masked in
 * every answer by the issuer's "account digits to display"; the issuer's card settings with their limits.
 */
import type { AccountDetail, IssuerDetail } from '@cardportal/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditEvents, cardholders } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { cardNumber, signedInClients } from './support/clients.ts';

let ctx: TestContext;
const { as, send } = signedInClients(() => ctx);
const luhn = (prefix: string, length = 16, seed = 7) => cardNumber(prefix, seed, length);

let holder = 0;
beforeAll(async () => {
  ctx = await startTestApp();
  const [row] = await ctx.services.database.db
    .select({ id: cardholders.id })
    .from(cardholders)
    .where(and(eq(cardholders.name1, 'Edsger'), eq(cardholders.name2, 'Dijkstra')));
  holder = row?.id ?? 0;
  expect(holder).toBeGreaterThan(0);
});
afterAll(() => ctx?.close());

const ACCOUNTS = '/app/api/org/companies/100001/accounts';

describe('issuing a card account', () => {
  it('checks the number against the issuer’s card BINs, seals it, masks it and audits it', async () => {
    const bins = await send('sysadmin01', 'PATCH', '/app/api/org/issuers/1001', {
      cardBins: ' 542418,\n411111 ',
    });
    expect(bins.statusCode, bins.body).toBe(200);
    expect((bins.json() as IssuerDetail).cardBins).toBe('542418,411111');

    const outside = await send('admin01', 'POST', ACCOUNTS, { cardholderId: holder, number: luhn('550000') });
    expect([outside.statusCode, outside.json().fieldErrors]).toEqual([400, { number: 'account.number.bin' }]);
    const wrongDigit = luhn('542418', 16, 3);
    const bad = `${wrongDigit.slice(0, -1)}${(Number(wrongDigit.slice(-1)) + 1) % 10}`;
    expect((await send('admin01', 'POST', ACCOUNTS, { cardholderId: holder, number: bad })).json().code).toBe(
      'account.number.luhn',
    );
    expect(
      (await send('admin01', 'POST', ACCOUNTS, { cardholderId: holder, number: '5424 18' })).json().code,
    ).toBe('account.number.format');

    const number = luhn('542418', 16, 11);
    const spaced = number.replace(/(\d{4})(?=\d)/g, '$1 ');
    const issued = await send('admin01', 'POST', ACCOUNTS, { cardholderId: holder, number: spaced });
    expect(issued.statusCode, issued.body).toBe(200);
    const account = issued.json() as AccountDetail;
    expect(account.maskedNumber).toBe(`542418******${number.slice(-4)}`);
    expect(account.status).toBe('Active');
    expect(account.cardholder?.id).toBe(holder);
    expect(issued.body).not.toContain(number);

    // Sealed: the number is nowhere in the clear, and found again only by its keyed hash.
    const [stored] = await ctx.services.database.db
      .select()
      .from(accounts)
      .where(eq(accounts.id, account.id));
    expect(stored?.number).toBeNull();
    expect(stored?.numberCipher).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(number);
    const again = await send('issadmin01', 'POST', ACCOUNTS, { cardholderId: holder, number });
    expect([again.statusCode, again.json().code]).toEqual([409, 'account.number.duplicate']);

    const [audit] = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'account.issued'));
    expect(audit?.entityId).toBe(account.maskedNumber);
    expect(JSON.stringify(audit)).not.toContain(number);

    // Any BIN again once the list is emptied.
    const any = await send('sysadmin01', 'PATCH', '/app/api/org/issuers/1001', { cardBins: '' });
    expect((any.json() as IssuerDetail).cardBins).toBe('');
    const other = await send('admin01', 'POST', ACCOUNTS, {
      cardholderId: holder,
      number: luhn('550000', 16, 5),
    });
    expect(other.statusCode, other.body).toBe(200);
  });

  it('refuses a cardholder outside the company, an unknown group, and those who may not issue', async () => {
    const number = luhn('542418', 16, 23);
    const cases: [string, unknown, number, string][] = [
      ['admin01', { cardholderId: 999999, number }, 400, 'account.cardholder.unknown'],
      ['admin01', { cardholderId: holder, number, groupId: 999999 }, 400, 'account.group.unknown'],
      ['admin01', { number }, 400, 'form.invalid'],
      ['sysadmin01', { cardholderId: holder, number }, 403, 'company.readOnly'],
      ['active01', { cardholderId: holder, number }, 403, 'permission.denied'],
      ['bncadmin01', { cardholderId: holder, number }, 404, 'company.notFound'],
    ];
    for (const [userId, body, status, code] of cases) {
      const res = await send(userId, 'POST', ACCOUNTS, body);
      expect([res.statusCode, res.json().code], `${userId} ${JSON.stringify(body)}`).toEqual([status, code]);
    }
  });
});

describe('the issuer’s card settings', () => {
  it('takes 1–8 account digits to display and masks every number by them (never past the last four)', async () => {
    const wrong = await send('sysadmin01', 'PATCH', '/app/api/org/issuers/1001', { accountDigits: 9 });
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'issuer.accountDigits.range']);
    const bins = await send('sysadmin01', 'PATCH', '/app/api/org/issuers/1001', { cardBins: '12345' });
    expect(bins.json().fieldErrors).toEqual({ cardBins: 'issuer.cardBins.format' });
    const long = await send('sysadmin01', 'PATCH', '/app/api/org/issuers/1001', {
      cardBins: Array.from({ length: 40 }, (_, i) => String(542400 + i)).join(','),
    });
    expect(long.json().fieldErrors).toEqual({ cardBins: 'issuer.cardBins.tooLong' });

    const two = await send('sysadmin01', 'PATCH', '/app/api/org/issuers/1001', { accountDigits: 2 });
    expect((two.json() as IssuerDetail).accountDigits).toBe(2);
    try {
      const cards = (await (await as('active01')).get('/app/api/my/cards')).json() as {
        accounts: { maskedNumber: string }[];
      };
      for (const card of cards.accounts) expect(card.maskedNumber).toMatch(/^\d{6}\*{8,}\d{2}$/);
      const list = (await (await as('active01')).get('/app/api/transactions')).json() as {
        rows: { account: { maskedNumber: string } }[];
      };
      expect(list.rows[0]?.account.maskedNumber).toMatch(/^\d{6}\*+\d{2}$/);
      const eight = await send('sysadmin01', 'PATCH', '/app/api/org/issuers/1001', { accountDigits: 8 });
      expect((eight.json() as IssuerDetail).accountDigits).toBe(8);
      const again = (await (await as('active01')).get('/app/api/transactions')).json() as typeof list;
      expect(again.rows[0]?.account.maskedNumber).toMatch(/^\d{6}\*+\d{4}$/);
    } finally {
      await send('sysadmin01', 'PATCH', '/app/api/org/issuers/1001', { accountDigits: 4 });
    }
    const trail = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'issuer.updated'), eq(auditEvents.entityId, '1001')));
    expect(trail.some((e) => JSON.stringify(e.changes).includes('"accountDigits"'))).toBe(true);
  });
});

describe('issuer status codes and maintenance reason codes', () => {
  const put = async (userId: string, url: string, body: unknown) =>
    (await as(userId)).request({
      method: 'PUT',
      url,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });

  it('keeps account status codes with the system status each sets, and sets an account’s status by one', async () => {
    const codes = '/app/api/org/issuers/1001/account-status-codes';
    const list = (await (await as('issadmin01')).get(codes)).json();
    expect(list.rows).toContainEqual({ code: 'FR', description: 'Suspected fraud', systemStatus: 'S' });
    const noStatus = await send('issadmin01', 'POST', codes, { code: 'XX', description: 'No status' });
    expect(noStatus.json().fieldErrors).toEqual({ systemStatus: 'issuerCode.systemStatus.required' });
    const added = await send('issadmin01', 'POST', codes, {
      code: 'vc',
      description: 'Card in review',
      systemStatus: 'S',
    });
    expect(added.json().rows).toContainEqual({
      code: 'VC',
      description: 'Card in review',
      systemStatus: 'S',
    });

    const [account] = await ctx.services.database.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.cardholderId, holder), eq(accounts.status, 'Active')))
      .limit(1);
    const url = `${ACCOUNTS}/${account?.id}`;
    const view = (await (await as('admin01')).get(url)).json() as AccountDetail;
    expect(view.statusCodes).toContainEqual({
      code: 'VC',
      description: 'Card in review',
      status: 'Suspended',
    });
    const mismatch = await put('admin01', `${url}/status`, { status: 'Active', statusCode: 'VC' });
    expect(mismatch.json().fieldErrors).toEqual({ statusCode: 'account.statusCode.mismatch' });
    const unknown = await put('admin01', `${url}/status`, { statusCode: 'QQ' });
    expect(unknown.json().fieldErrors).toEqual({ statusCode: 'account.statusCode.unknown' });
    const byCode = await put('admin01', `${url}/status`, { statusCode: 'vc' });
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(byCode.json()).toMatchObject({
      status: 'Suspended',
      statusCode: { code: 'VC', description: 'Card in review' },
    });
    const back = await put('admin01', `${url}/status`, { status: 'Active' });
    expect(back.json()).toMatchObject({ status: 'Active', statusCode: null });
    const trail = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'account.statusChanged'));
    expect(trail.some((e) => JSON.stringify(e.changes).includes('"after":"VC"'))).toBe(true);
  });

  it('gives a cardholder at most 10 of the issuer’s maintenance reason codes', async () => {
    const url = `/app/api/org/companies/100001/cardholders/${holder}`;
    const before = (await (await as('admin01')).get(url)).json();
    expect(before.reasonChoices.map((r: { code: string }) => r.code)).toContain('AD');
    const set = await put('admin01', `${url}/reasons`, { codes: ['ad', 'RP'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().reasons).toEqual([
      { code: 'AD', description: 'Address changed' },
      { code: 'RP', description: 'Card replaced' },
    ]);
    for (const [codes, key] of [
      [['AD', 'ZZ'], 'cardholder.reasons.unknown'],
      [['AD', 'ad'], 'cardholder.reasons.duplicate'],
      [Array.from({ length: 11 }, (_, i) => `R${i}`), 'cardholder.reasons.tooMany'],
    ] as const) {
      const res = await put('admin01', `${url}/reasons`, { codes });
      expect([res.statusCode, res.json().fieldErrors], JSON.stringify(codes)).toEqual([400, { codes: key }]);
    }
    expect((await (await as('admin01')).get(url)).json().reasons).toHaveLength(2);
    // Ten are fine: the issuer's list is grown to have them.
    for (const code of ['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8'])
      await send('issadmin01', 'POST', '/app/api/org/issuers/1001/maintenance-reasons', {
        code,
        description: `Reason ${code}`,
      });
    const ten = await put('admin01', `${url}/reasons`, {
      codes: ['AD', 'RP', 'M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8'],
    });
    expect(ten.json().reasons).toHaveLength(10);
    expect((await put('active01', `${url}/reasons`, { codes: [] })).statusCode).toBe(403);
    expect((await put('sysadmin01', `${url}/reasons`, { codes: [] })).json().code).toBe('company.readOnly');
    const cleared = await put('admin01', `${url}/reasons`, { codes: [] });
    expect(cleared.json().reasons).toEqual([]);
  });
});
