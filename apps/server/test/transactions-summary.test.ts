/**
 * The Transaction Summary (issue 15 item 3) on the real database, signed in as the demo users of each
 * type: scope in SQL (each type sees exactly the transactions of the cards in its scope, checked
 * against the database), filters with every wrong one named, money in minor units with the currency's
 * exponent, keyset paging forwards and back, the page jump, and no full card number in any answer.
 */
import type { SpendSummary, TransactionDetail, TransactionList } from '@cardportal/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { demoAccountNumber } from '../src/demo/organisations.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
const clients = new Map<string, TestClient>();
const bodies: string[] = [];

async function get(userId: string, url: string) {
  let client = clients.get(userId);
  if (!client) {
    client = new TestClient(ctx.app);
    const res = await client.login(userId, DEMO_PASSWORD);
    expect(res.body, `${userId} signs in`).toBe('/app/');
    clients.set(userId, client);
  }
  const res = await client.get(url);
  bodies.push(res.body);
  return res;
}
const list = async (userId: string, query = '') => {
  const res = await get(userId, `/app/api/transactions${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body) as TransactionList;
};

/** How many transactions the database holds for a condition on (transactions t, accounts a, companies c). */
async function countWhere(condition: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.services.database.db,
    sql`select count(*)::int as n from transactions t join accounts a on a.id = t.account_id
      join companies c on c.id = t.company_id left join cardholders h on h.id = a.cardholder_id where ${condition}`,
  );
  return row?.n ?? 0;
}

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('Transaction Summary: scope', () => {
  it('gives each user type exactly the transactions of its scope', async () => {
    const expected: Record<string, ReturnType<typeof sql>> = {
      active01: sql`h.id = (select cardholder_id from users where user_id = 'active01')`,
      agmgr01: sql`a.account_group_id = (select account_group_id from users where user_id = 'agmgr01')`,
      lvlmgr01: sql`h.org_point_id in (with recursive sub(id) as (select org_point_id from users where user_id = 'lvlmgr01'
        union all select o.id from org_points o join sub on o.reports_to_id = sub.id) select id from sub)`,
      admin01: sql`c.number = '100001'`,
      cgadmin01: sql`c.company_group_id = (select company_group_id from users where user_id = 'cgadmin01')`,
      issadmin01: sql`t.issuer_id = (select issuer_id from users where user_id = 'issadmin01')`,
      isgadmin01: sql`true`,
      sysadmin01: sql`true`,
      bncadmin01: sql`c.number = '200001'`,
    };
    for (const [userId, condition] of Object.entries(expected)) {
      const answer = await list(userId);
      const total = await countWhere(condition);
      expect(total, `${userId} has transactions in scope`).toBeGreaterThan(0);
      expect([userId, answer.total]).toEqual([userId, Math.min(total, 10_000)]);
    }
    // A cardholder filtering by another cardholder's account finds nothing, and cannot open it.
    const [other] = await queryRows<{ id: number; account_id: number }>(
      ctx.services.database.db,
      sql`select t.id, t.account_id from transactions t join companies c on c.id = t.company_id where c.number = '200001' limit 1`,
    );
    expect((await list('active01', `?account=${other?.account_id}`)).total).toBe(0);
    expect((await get('active01', `/app/api/transactions/${other?.id}`)).statusCode).toBe(404);
    expect((await get('admin01', `/app/api/transactions/${other?.id}`)).statusCode).toBe(404);
    expect((await get('bncadmin01', `/app/api/transactions/${other?.id}`)).statusCode).toBe(200);
    expect((await get('bncadmin01', '/app/api/transactions/x1')).statusCode).toBe(404);
  });
});

describe('Transaction Summary: answers', () => {
  it('carries money as minor units with the exponent, the card masked, the category of the MCC', async () => {
    const answer = await list('sysadmin01', '?currency=JPY');
    expect(answer.rows.length).toBeGreaterThan(0);
    for (const row of answer.rows) {
      expect(row.amount).toMatchObject({ currency: 'JPY', exponent: 0 });
      expect(row.amount.minor).toMatch(/^-?\d+$/);
      expect(row.account.maskedNumber).toMatch(/^542418\*+\d{4}$/);
    }
    const bhd = await list('sysadmin01', '?currency=BHD');
    for (const row of bhd.rows) expect(row.amount.exponent).toBe(3);
    const first = answer.rows[0];
    const detail = JSON.parse(
      (await get('sysadmin01', `/app/api/transactions/${first?.id}`)).body,
    ) as TransactionDetail;
    expect(detail).toMatchObject({ id: first?.id, amount: first?.amount, companyNumber: expect.any(String) });
    expect(['airlines', 'lodging', 'travel', 'restaurants', 'carRental', 'retail']).toContain(
      detail.category,
    );
  });

  it('filters by dates, status, amount range in minor units, MCC, merchant and last four', async () => {
    const all = await list('admin01');
    const from = '2026-01-01';
    const newest = all.rows[0]?.transactionDate ?? '';
    const ranged = await list('admin01', `?from=${from}&to=${newest}`);
    expect(ranged.total).toBe(all.total);
    const locked = await list('admin01', '?status=locked');
    expect(locked.rows.every((r) => r.status === 'Locked')).toBe(true);
    expect(locked.total).toBe(await countWhere(sql`c.number = '100001' and t.status = 'Locked'`));
    const band = await list('admin01', '?currency=USD&min=100.00&max=250.5');
    expect(band.total).toBe(
      await countWhere(sql`c.number = '100001' and t.currency = 'USD' and t.amount between 10000 and 25050`),
    );
    for (const r of band.rows)
      expect(BigInt(r.amount.minor) >= 10000n && BigInt(r.amount.minor) <= 25050n).toBe(true);
    const fuel = await list('admin01', '?mcc=5541');
    expect(fuel.rows.every((r) => r.mcc === '5541' && r.category === 'fuel')).toBe(true);
    const shell = await list('admin01', '?q=shel');
    expect(shell.total).toBeGreaterThan(0);
    expect(shell.rows.every((r) => r.merchantName === 'Shell')).toBe(true);
    const last4 = demoAccountNumber(1).slice(-4);
    const card = await list('admin01', `?q=${last4}`);
    expect(card.total).toBeGreaterThan(0);
    expect(card.rows.every((r) => r.account.maskedNumber.endsWith(last4))).toBe(true);
    const oldest = await list('admin01', '?order=oldest');
    expect((oldest.rows[0]?.transactionDate ?? '') <= (oldest.rows.at(-1)?.transactionDate ?? '')).toBe(true);
  });

  it('names every wrong filter at once (400), never a 5xx', async () => {
    const res = await get(
      'admin01',
      '/app/api/transactions?from=2026-02-30&to=x&status=Pending&currency=EUR&min=1.234&max=abc&mcc=55&q=a&order=up&account=-1',
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).fieldErrors).toEqual({
      from: 'date.invalid',
      to: 'date.invalid',
      account: 'transactions.filter.account',
      status: 'status.invalid',
      min: 'money.amount.decimals',
      max: 'money.amount.format',
      mcc: 'transaction.mcc.format',
      q: 'search.tooShort',
      order: 'transactions.filter.order',
    });
    const noCurrency = await get('admin01', '/app/api/transactions?min=10');
    expect(JSON.parse(noCurrency.body).fieldErrors).toEqual({
      currency: 'transactions.filter.currencyRequired',
    });
    const reversed = await get(
      'admin01',
      '/app/api/transactions?currency=EUR&min=10&max=9&from=2026-02-02&to=2026-02-01',
    );
    expect(JSON.parse(reversed.body).fieldErrors).toEqual({
      max: 'money.range.minAboveMax',
      to: 'dateRange.fromAfterTo',
    });
    for (const query of ['?page=0', '?page=9999', '?page=x', '?after=abc', '?after=a&before=b'])
      expect((await get('admin01', `/app/api/transactions${query}`)).statusCode, query).toBe(400);
  });
});

describe('Transaction Summary: paging', () => {
  it('pages by key forwards and back, and jumps to a page', async () => {
    const first = await list('isgadmin01');
    expect(first.pageCount).toBeGreaterThan(3);
    expect(first.rows).toHaveLength(25);
    const second = await list('isgadmin01', `?after=${first.nextCursor}`);
    const third = await list('isgadmin01', `?after=${second.nextCursor}`);
    const back = await list('isgadmin01', `?before=${third.prevCursor}`);
    expect(back.rows.map((r) => r.id)).toEqual(second.rows.map((r) => r.id));
    const jumped = await list('isgadmin01', '?page=3');
    expect(jumped.page).toBe(3);
    expect(jumped.rows.map((r) => r.id)).toEqual(third.rows.map((r) => r.id));
    const ids = [...first.rows, ...second.rows, ...third.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(75);
    // Newest first: (date, id) never increases along the pages.
    const keys = [...first.rows, ...second.rows, ...third.rows].map(
      (r) => `${r.transactionDate}/${String(r.id).padStart(12, '0')}`,
    );
    expect(keys).toEqual([...keys].sort().reverse());
    const last = await list('isgadmin01', `?page=${first.pageCount}`);
    expect(last.nextCursor).toBeNull();
    expect(last.rows.length).toBe(first.total - (first.pageCount - 1) * 25);
  });

  it('draws the spend picture in minor units: six months, by category, one currency at a time', async () => {
    const res = await get('admin01', '/app/api/transactions/spend');
    expect(res.statusCode, res.body).toBe(200);
    const spend = JSON.parse(res.body) as SpendSummary;
    expect(spend.byMonth).toHaveLength(6);
    expect(spend.currency).toBe(spend.currencies[0]?.currency);
    const [expected] = await queryRows<{ minor: string; n: number }>(
      ctx.services.database.db,
      sql`select coalesce(sum(t.amount), 0)::text as minor, count(*)::int as n from transactions t
        join companies c on c.id = t.company_id
        where c.number = '100001' and t.currency = ${spend.currency} and t.transaction_date >= ${spend.from}::date`,
    );
    const total = (rows: { minor: string }[]) => rows.reduce((sum, r) => sum + BigInt(r.minor), 0n);
    expect(total(spend.byMonth)).toBe(BigInt(expected?.minor ?? '0'));
    expect(total(spend.byCategory)).toBe(BigInt(expected?.minor ?? '0'));
    expect(spend.byMonth.reduce((n, m) => n + m.count, 0)).toBe(expected?.n);
    const yen = JSON.parse(
      (await get('admin01', '/app/api/transactions/spend?currency=jpy')).body,
    ) as SpendSummary;
    expect([yen.currency, yen.exponent]).toEqual(['JPY', 0]);
    expect((await get('admin01', '/app/api/transactions/spend?currency=XYZ')).statusCode).toBe(400);
    // A cardholder's picture holds its own cards only.
    const own = JSON.parse((await get('active01', '/app/api/transactions/spend')).body) as SpendSummary;
    expect(own.byMonth.reduce((n, m) => n + m.count, 0)).toBeLessThan(
      spend.byMonth.reduce((n, m) => n + m.count, 0),
    );
  });

  it("pages a manager's cards by key to the end and back, in the list's order, every one once", async () => {
    for (const [userId, order] of [
      ['agmgr01', 'newest'],
      ['lvlmgr01', 'oldest'],
    ] as const) {
      const seen: number[] = [];
      let page = await list(userId, `?order=${order}`);
      const pages = [page];
      seen.push(...page.rows.map((r) => r.id));
      while (page.nextCursor) {
        page = await list(userId, `?order=${order}&after=${page.nextCursor}`);
        pages.push(page);
        seen.push(...page.rows.map((r) => r.id));
      }
      expect(seen).toHaveLength(page.total);
      expect(new Set(seen).size).toBe(seen.length);
      const keys = pages.flatMap((p) =>
        p.rows.map((r) => `${r.transactionDate}/${String(r.id).padStart(12, '0')}`),
      );
      expect(keys).toEqual(order === 'newest' ? [...keys].sort().reverse() : [...keys].sort());
      // Back from the last page: the page before it.
      const last = pages.at(-1);
      const before = pages.at(-2);
      if (last?.prevCursor && before) {
        const back = await list(userId, `?order=${order}&before=${last.prevCursor}`);
        expect(back.rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id));
      }
    }
  });

  it('never answers a full card number', () => {
    const numbers = Array.from({ length: 30 }, (_, i) => demoAccountNumber(i + 1));
    for (const body of bodies) for (const number of numbers) expect(body).not.toContain(number);
  });
});
