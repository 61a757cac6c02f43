/**
 * A transaction file uploaded in the application (issue 15 item 2): 4 MB, the catalogue's type, virus
 * and header messages, the issuer of the uploader's scope, all or nothing with a report by line and
 * field, the content (not the name) deciding CSV or XML; the audit trail records each attempt.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, transactions } from '../src/db/schema.ts';
import { demoAccountNumber } from '../src/demo/organisations.ts';
import { DEMO_PASSWORD, startTestApp, TestClient, type TestContext } from './harness.ts';

const HEADER =
  'reference,account_number,transaction_date,posting_date,merchant_name,merchant_city,merchant_country,mcc,amount,currency,tax_amount';
const GRACE = demoAccountNumber(1);
const LUCIA = demoAccountNumber(6);
const row = (reference: string, card: string, amount = '45.10', currency = 'USD') =>
  `${reference},${card},2026-10-01,2026-10-02,Shell,Columbus,US,5541,${amount},${currency},`;

let ctx: TestContext;
const clients = new Map<string, TestClient>();
async function upload(userId: string, body: Buffer | string, query = '', type = 'application/octet-stream') {
  let client = clients.get(userId);
  if (!client) {
    client = new TestClient(ctx.app);
    expect((await client.login(userId, DEMO_PASSWORD)).body).toBe('/app/');
    clients.set(userId, client);
  }
  return client.request({
    method: 'POST',
    url: `/app/api/transactions/import${query}`,
    payload: (typeof body === 'string' ? Buffer.from(body) : body) as unknown as string,
    headers: { 'content-type': type },
  });
}
const count = async (like: string) =>
  (
    await ctx.services.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(transactions)
      .where(sql`${transactions.reference} like ${like}`)
  )[0]?.n ?? 0;

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('transaction file upload', () => {
  it("takes an issuer administrator's file for its own issuer, once", async () => {
    const file = [HEADER, row('UP-1', GRACE), row('UP-2', GRACE, '1200', 'JPY')].join('\n');
    const first = await upload('issadmin01', file, '?name=october.csv');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      rows: 2,
      imported: 2,
      duplicates: 0,
      rejected: 0,
      format: 'csv',
      ignored: [],
    });
    const again = await upload('issadmin01', file, '?name=october.csv');
    expect(again.json()).toMatchObject({ imported: 0, duplicates: 2 });
    expect(await count('UP-%')).toBe(2);
    const events = await ctx.services.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'transactions.imported'));
    expect(events.at(-1)).toMatchObject({ actorUserId: 'issadmin01', entity: 'transactionImport' });
    expect(JSON.stringify(events)).not.toContain(GRACE);
  });

  it('refuses the whole file with every bad row by line and field, and another issuer’s card', async () => {
    const file = [HEADER, row('BADUP-1', GRACE), row('BADUP-2', GRACE, '1.001'), row('BADUP-3', LUCIA)].join(
      '\n',
    );
    const refused = await upload('issadmin01', file);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'upload.rows',
      read: 3,
      rejected: 2,
      imported: 0,
      rows: [
        { row: 3, field: 'amount', problem: 'money.amount.decimals' },
        { row: 4, field: 'account_number', problem: 'transactions.account.otherIssuer' },
      ],
    });
    expect(refused.body).not.toContain(LUCIA);
    expect(await count('BADUP-%')).toBe(0);
    const missing = await upload('issadmin01', 'reference,amount\nX,1\n');
    expect([missing.statusCode, missing.json().code]).toEqual([422, 'upload.missingHeaders']);
  });

  it('asks an issuer group administrator which issuer, and keeps it to its group', async () => {
    const file = [HEADER, row('GRP-1', LUCIA, '10.00', 'EUR')].join('\n');
    const unnamed = await upload('isgadmin01', file);
    expect([unnamed.statusCode, unnamed.json().fieldErrors]).toEqual([
      400,
      { issuer: 'transactions.issuer.required' },
    ]);
    expect((await upload('isgadmin01', file, '?issuer=9999')).statusCode).toBe(404);
    expect((await upload('isgadmin01', file, '?issuer=2001')).json()).toMatchObject({ imported: 1 });
    // The system administrator may name none; a company administrator may not upload at all.
    const xmlNamedCsv = `<?xml version="1.0"?><Transactions><Transaction><reference>SYS-1</reference><account_number>${GRACE}</account_number><transaction_date>2026-10-01</transaction_date><posting_date>2026-10-01</posting_date><merchant_name>Staples</merchant_name><merchant_country>US</merchant_country><mcc>5943</mcc><amount>9.99</amount><currency>USD</currency></Transaction></Transactions>`;
    expect((await upload('sysadmin01', xmlNamedCsv, '?name=looks.csv')).json()).toMatchObject({
      format: 'xml',
      imported: 1,
    });
    expect((await upload('admin01', file)).statusCode).toBe(403);
  });

  it('answers the catalogue: virus, not a text file, wrong type, too large, nothing sent', async () => {
    const eicar = `${HEADER}\nX5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*\n`;
    const virus = await upload('issadmin01', eicar);
    expect([virus.statusCode, virus.json().code]).toEqual([422, 'upload.virus']);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    const binary = await upload('issadmin01', png);
    expect([binary.statusCode, binary.json().code]).toEqual([415, 'upload.unsupportedFormat']);
    const wrongType = await upload('issadmin01', `${HEADER}\n`, '', 'text/csv');
    expect([wrongType.statusCode, wrongType.json().code]).toEqual([415, 'upload.unsupportedFormat']);
    const big = await upload('issadmin01', Buffer.alloc(4 * 1024 * 1024 + 1, 0x41));
    expect([big.statusCode, big.json().code]).toEqual([413, 'upload.tooLarge']);
    const empty = await upload('issadmin01', Buffer.alloc(0));
    expect([empty.statusCode, empty.json().code]).toEqual([400, 'upload.empty']);
  });
});
