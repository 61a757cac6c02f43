import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardholders, companies } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * Sortable lists (issue 20 item 3, docs/paging.md "Sorting"): every order a list offers pages by key
 * through all its rows — none skipped, none twice, backwards the same pages — the descending order is
 * the ascending one turned round (each order is a unique key), a cursor keeps to its order, and an
 * order the list does not offer is a 400 naming the parameter.
 */
let ctx: TestContext;
const { get } = signedInClients(() => ctx);
const ACME = '/app/api/org/companies/100001';

beforeAll(async () => {
  ctx = await startTestApp();
  // 60 cardholders of Acme whose names repeat (name 2 ties, then name 1 ties, the id decides), a third
  // of them inactive: three pages of 25 in every order.
  const db = ctx.app.db;
  const [acme] = await db.select().from(companies).where(eq(companies.number, '100001'));
  if (!acme) throw new Error('no company 100001');
  await db.insert(cardholders).values(
    Array.from({ length: 60 }, (_, i) => ({
      companyId: acme.id,
      name1: `Sorter ${i % 4}`,
      name2: `Zed ${Math.floor(i / 8)}`,
      active: i % 3 !== 0,
    })),
  );
});
afterAll(async () => {
  await ctx?.close();
});

interface Page<Row> {
  rows: Row[];
  nextCursor: string | null;
  prevCursor: string | null;
}

const withParams = (url: string, params: Record<string, string>) =>
  `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(params)}`;

/**
 * Every page of a list from the first, forwards, then the same pages backwards from the last one's
 * `prevCursor`: returns the rows in order, after checking that the way back met the same pages.
 */
async function walk<Row>(userId: string, url: string, idOf: (row: Row) => string): Promise<string[]> {
  const pages: string[][] = [];
  let res = await get(userId, url);
  expect(res.statusCode, url).toBe(200);
  let page = res.json() as Page<Row>;
  pages.push(page.rows.map(idOf));
  while (page.nextCursor !== null) {
    res = await get(userId, withParams(url, { after: page.nextCursor }));
    expect(res.statusCode).toBe(200);
    page = res.json() as Page<Row>;
    pages.push(page.rows.map(idOf));
    expect(pages.length).toBeLessThan(100);
  }
  const back: string[][] = [page.rows.map(idOf)];
  while (page.prevCursor !== null) {
    page = (await get(userId, withParams(url, { before: page.prevCursor }))).json() as Page<Row>;
    back.unshift(page.rows.map(idOf));
  }
  expect(back).toEqual(pages);
  return pages.flat();
}

/** Each order: every row once, descending the reverse of ascending, the first key in order. */
async function checkOrders<Row>(
  userId: string,
  url: string,
  sorts: readonly string[],
  idOf: (row: Row) => string,
  expectedCount: number,
) {
  const orders: Record<string, string[]> = {};
  for (const sort of sorts) {
    const up = await walk<Row>(userId, withParams(url, { sort, dir: 'asc' }), idOf);
    const down = await walk<Row>(userId, withParams(url, { sort, dir: 'desc' }), idOf);
    expect(up, `${url} by ${sort}`).toHaveLength(expectedCount);
    expect(new Set(up).size).toBe(expectedCount);
    expect(down, `${url} by ${sort} descending`).toEqual([...up].reverse());
    orders[sort] = up;
  }
  return orders;
}

describe('sortable lists', () => {
  it('cardholders: by name or by status, each way, through three pages', async () => {
    const idOf = (row: { id: number; active: boolean }) => `${row.active ? 'A' : 'I'}${row.id}`;
    const orders = await checkOrders('admin01', `${ACME}/cardholders?q=sorter`, ['name', 'status'], idOf, 60);
    // The default order is by name, ascending.
    expect(await walk('admin01', `${ACME}/cardholders?q=sorter`, idOf)).toEqual(orders.name);
    // By status: the 40 active first, then the 20 inactive.
    expect(orders.status?.map((id) => id[0]).join('')).toBe(`${'A'.repeat(40)}${'I'.repeat(20)}`);
    expect(orders.status).not.toEqual(orders.name);
  });

  it('people: by name, user ID, type and status', async () => {
    const idOf = (row: { userId: string; userType: string; status: string }) =>
      `${row.userType}|${row.status}|${row.userId}`;
    const url = '/app/api/users?status=Active';
    const total = ((await get('sysadmin01', url)).json() as { total: number }).total;
    expect(total).toBeGreaterThan(5);
    const orders = await checkOrders(
      'sysadmin01',
      url,
      ['name', 'userId', 'userType', 'status'],
      idOf,
      total,
    );
    const types = orders.userType?.map((id) => id.split('|')[0] ?? '') ?? [];
    expect(types).toEqual([...types].sort());
    expect(new Set(types).size).toBeGreaterThan(2);
    const ids = orders.userId?.map((id) => id.split('|')[2] ?? '') ?? [];
    expect(new Set([ids.join(), orders.name?.map((id) => id.split('|')[2]).join()]).size).toBe(2);
  });

  it('companies, accounts, real cards and issuers each way', async () => {
    const companyCount = ((await get('sysadmin01', '/app/api/org/companies')).json() as { total: number })
      .total;
    await checkOrders(
      'sysadmin01',
      '/app/api/org/companies',
      ['number', 'name1'],
      (row: { number: string }) => row.number,
      companyCount,
    );
    const accountCount = ((await get('admin01', `${ACME}/accounts`)).json() as { total: number }).total;
    const byStatus = await checkOrders(
      'admin01',
      `${ACME}/accounts`,
      ['cardholder', 'maskedNumber', 'status'],
      (row: { id: number; status: string }) => `${row.status}|${row.id}`,
      accountCount,
    );
    const statuses = byStatus.status?.map((id) => id.split('|')[0] ?? '') ?? [];
    expect(statuses).toEqual([...statuses].sort());
    const cardCount = ((await get('admin01', `${ACME}/real-cards`)).json() as { total: number }).total;
    await checkOrders(
      'admin01',
      `${ACME}/real-cards`,
      ['alias', 'status'],
      (row: { id: number }) => String(row.id),
      cardCount,
    );
    // The issuers page by number with a jump: the two orders, each way, on page 1.
    const issuers = async (sort: string, dir: string) =>
      (
        (await get('sysadmin01', `/app/api/org/issuers?sort=${sort}&dir=${dir}`)).json() as {
          rows: { number: string; name1: string }[];
        }
      ).rows;
    const byNumber = await issuers('number', 'asc');
    expect(byNumber.length).toBeGreaterThan(1);
    expect((await issuers('number', 'desc')).map((r) => r.number)).toEqual(
      byNumber.map((r) => r.number).reverse(),
    );
    expect((await issuers('name1', 'desc')).map((r) => r.number)).toEqual(
      (await issuers('name1', 'asc')).map((r) => r.number).reverse(),
    );
  });

  it('the audit trail newest or oldest first', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const url = `/app/api/audit?from=${today}&to=${today}`;
    const first = (await get('sysadmin01', url)).json() as { total: number; totalIsLowerBound: boolean };
    expect(first.total).toBeGreaterThan(0);
    const idOf = (row: { id: number }) => String(row.id);
    const newest = await walk('sysadmin01', url, idOf);
    const oldest = await walk('sysadmin01', withParams(url, { sort: 'at', dir: 'asc' }), idOf);
    expect(oldest).toEqual([...newest].reverse());
  });

  it('keeps a cursor to its order, and refuses an order the list does not offer', async () => {
    const url = `${ACME}/cardholders?q=sorter`;
    const byName = (await get('admin01', url)).json() as Page<unknown>;
    expect(byName.nextCursor).not.toBeNull();
    const mixed = await get('admin01', withParams(url, { sort: 'status', after: byName.nextCursor ?? '' }));
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toMatchObject({ fieldErrors: { after: 'page.cursorInvalid' } });
    const descending = (await get('admin01', withParams(url, { dir: 'desc' }))).json() as Page<unknown>;
    const wrongWay = await get('admin01', withParams(url, { after: descending.nextCursor ?? '' }));
    expect(wrongWay.statusCode).toBe(400);

    for (const [path, params] of [
      ['/app/api/users?status=Active', { sort: 'email' }],
      ['/app/api/users?status=Active', { sort: 'name', dir: 'sideways' }],
      ['/app/api/org/companies', { sort: 'issuer' }],
      [`${ACME}/cardholders`, { sort: 'orgPoint' }],
      [`${ACME}/accounts`, { sort: 'group' }],
      [`${ACME}/real-cards`, { sort: 'inUse' }],
      ['/app/api/org/issuers', { sort: 'ica' }],
      ['/app/api/audit', { sort: 'event' }],
    ] as const) {
      const res = await get('sysadmin01', withParams(path, params));
      expect(res.statusCode, `${path} ${JSON.stringify(params)}`).toBe(400);
      const key = 'dir' in params ? 'dir' : 'sort';
      expect(res.json()).toMatchObject({ fieldErrors: { [key]: 'sort.invalid' } });
    }
  });
});
