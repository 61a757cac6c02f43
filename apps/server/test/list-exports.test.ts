import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardholders, companies } from '../src/db/schema.ts';
import { startTestApp, type TestContext } from './harness.ts';
import { signedInClients } from './support/clients.ts';

/**
 * A list exports what it shows (issue 20 item 3): every match of its search — all pages, in the order
 * chosen — as CSV with a header row and a byte-order mark, formula-safe, card numbers masked, inside
 * the caller's scope; a search the list refuses is refused as CSV too.
 */
let ctx: TestContext;
const { get } = signedInClients(() => ctx);
const ACME = '/app/api/org/companies/100001';

beforeAll(async () => {
  ctx = await startTestApp();
  const db = ctx.app.db;
  const [acme] = await db.select().from(companies).where(eq(companies.number, '100001'));
  if (!acme) throw new Error('no company 100001');
  // 40 cardholders (two pages of the list), one of them named like a spreadsheet formula.
  await db.insert(cardholders).values([
    ...Array.from({ length: 39 }, (_, i) => ({
      companyId: acme.id,
      name1: 'Exporter',
      name2: `Row ${String(i).padStart(2, '0')}`,
    })),
    { companyId: acme.id, name1: 'Exporter', name2: '=HYPERLINK("http://evil.example","x")' },
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

/** The CSV of a list export: checks the download's headers, strips the BOM, parses the rows. */
async function exported(userId: string, url: string) {
  const res = await get(userId, url);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(
    /^attachment; filename="[a-z-]+(-\d+)?-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.body.startsWith('\uFEFF')).toBe(true);
  const records = parse(res.body.slice(1), { columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  return { text: res.body, records, header: res.body.slice(1).split('\r\n')[0] };
}

describe('list exports (CSV)', () => {
  it('cardholders: every match across pages, in the order chosen, a formula neutralised', async () => {
    const list = (await get('admin01', `${ACME}/cardholders?q=exporter`)).json() as {
      total: number;
      nextCursor: string | null;
    };
    expect(list.total).toBe(40);
    expect(list.nextCursor).not.toBeNull();
    const { records, header } = await exported('admin01', `${ACME}/cardholders.csv?q=exporter`);
    expect(header).toBe('name1,name2,orgPoint,accounts,status');
    expect(records).toHaveLength(40);
    expect(records.filter((r) => r.name2?.startsWith('Row ')).map((r) => r.name2)).toEqual(
      Array.from({ length: 39 }, (_, i) => `Row ${String(i).padStart(2, '0')}`),
    );
    // The formula starts with an apostrophe: a spreadsheet shows it as text and never runs it.
    expect(records.find((r) => r.name2?.includes('HYPERLINK'))?.name2).toBe(
      `'=HYPERLINK("http://evil.example","x")`,
    );
    const down = await exported('admin01', `${ACME}/cardholders.csv?q=exporter&sort=name&dir=desc`);
    expect(down.records.map((r) => r.name2)).toEqual(records.map((r) => r.name2).reverse());
  });

  it('accounts and real cards: card numbers leave masked, never whole', async () => {
    const accounts = await exported('admin01', `${ACME}/accounts.csv`);
    expect(accounts.header).toBe('maskedNumber,cardholder,realCardAlias,group,status');
    const total = ((await get('admin01', `${ACME}/accounts`)).json() as { total: number }).total;
    expect(accounts.records).toHaveLength(total);
    for (const record of accounts.records) expect(record.maskedNumber).toMatch(/^\d{6}\*+\d{4}$/);
    // No run of 12 or more digits anywhere: a full card number cannot be in the file.
    expect(accounts.text).not.toMatch(/\d{12,}/);
    expect(accounts.records.some((r) => r.realCardAlias === 'Travel lodge card')).toBe(true);

    const cards = await exported('admin01', `${ACME}/real-cards.csv`);
    expect(cards.header).toBe('alias,maskedNumber,accountStatus,inUse,status');
    expect(cards.records.map((r) => r.alias)).toContain('Travel lodge card');
    expect(cards.text).not.toMatch(/\d{12,}/);
  });

  it('companies: in scope only, in the order chosen', async () => {
    const all = await exported('sysadmin01', '/app/api/org/companies.csv?sort=name1');
    expect(all.header).toBe('number,name1,name2,issuerNumber,issuerName,groupName,multiUser,status');
    const total = ((await get('sysadmin01', '/app/api/org/companies')).json() as { total: number }).total;
    expect(all.records).toHaveLength(total);
    const names = all.records.map((r) => r.name1 ?? '');
    expect(names.length).toBeGreaterThan(1);
    // A company administrator's export holds its own company alone.
    const own = await exported('admin01', '/app/api/org/companies.csv');
    expect(own.records.map((r) => r.number)).toEqual(['100001']);
  });

  it('issuers: in scope, in the order chosen', async () => {
    const byName = await exported('sysadmin01', '/app/api/org/issuers.csv?sort=name1&dir=desc');
    expect(byName.header).toBe('number,name1,name2,ica,bankNumber,issuerGroup,cobrand,status');
    const list = (await get('sysadmin01', '/app/api/org/issuers?sort=name1&dir=desc')).json() as {
      rows: { number: string }[];
    };
    expect(byName.records.map((r) => r.number)).toEqual(list.rows.map((r) => r.number));
    expect(byName.records.length).toBeGreaterThan(1);
    expect((await get('admin01', '/app/api/org/issuers.csv')).statusCode).toBe(403);
  });

  it('refuses what the list refuses: bad criteria, an unknown order, another company', async () => {
    const short = await get('admin01', `${ACME}/cardholders.csv?q=x`);
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ fieldErrors: { q: 'search.tooShort' } });
    const order = await get('admin01', `${ACME}/accounts.csv?sort=group`);
    expect(order.statusCode).toBe(400);
    expect(order.json()).toMatchObject({ fieldErrors: { sort: 'sort.invalid' } });
    expect((await get('admin01', '/app/api/org/companies/100002/accounts.csv')).statusCode).toBe(404);
    expect((await get('active01', '/app/api/org/companies.csv')).statusCode).toBe(403);
  });
});
