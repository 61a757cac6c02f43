import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/commands.ts';
import { queryRows } from '../src/db/client.ts';
import { accounts, auditEvents, transactionImports, transactions } from '../src/db/schema.ts';
import { demoAccountNumber } from '../src/demo/organisations.ts';
import { importTransactions } from '../src/modules/transactions/index.ts';
import { startTestApp, type TestContext } from './harness.ts';

/**
 * Transaction files (issue 15 item 2, DESIGN §7 "Transactions"): the CLI `transactions import` and the
 * import under it, on both databases — COPY on PostgreSQL, batches on the embedded one.
 */
const HEADER =
  'reference,account_number,transaction_date,posting_date,merchant_name,merchant_city,merchant_country,mcc,amount,currency,tax_amount';
/** Grace Hopper's card (Acme, issuer 1001) and Lucía Martín's (Norte Logística, issuer 2001). */
const GRACE = demoAccountNumber(1);
const LUCIA = demoAccountNumber(6);

describe('transactions import', () => {
  let ctx: TestContext;
  let dir: string;
  beforeAll(async () => {
    ctx = await startTestApp();
    dir = mkdtempSync(path.join(tmpdir(), 'cp-tx-'));
  });
  afterAll(() => ctx?.close());

  const db = () => ctx.services.database.db;
  const file = (name: string, text: string) => {
    const where = path.join(dir, name);
    writeFileSync(where, text);
    return where;
  };
  const cp = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      env: { NODE_ENV: 'test', DATA_DIR: ctx.config.dataDir },
      database: ctx.services.database,
      io: { out: (l) => (stdout += `${l}\n`), err: (l) => (stderr += `${l}\n`) },
    });
    return { code, stdout, stderr };
  };
  /**
   * Rows where the spend roll-up (spend_months, kept by a trigger) and an aggregate of the transactions
   * themselves differ, both ways: 0 when the roll-up is exact.
   */
  const rollupDrift = async () => {
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`with direct as (
            select account_id, date_trunc('month', transaction_date)::date as month, mcc, currency,
                   sum(amount) as minor, count(*)::int as count
              from transactions group by 1, 2, 3, 4),
          rolled as (select account_id, month, mcc, currency, minor, count from spend_months)
          select count(*)::int as n from (
            (select * from direct except select * from rolled)
            union all
            (select * from rolled except select * from direct)) d`,
    );
    return row?.n;
  };
  const countOf = async (where = sql`true`) =>
    (await db().select({ n: count() }).from(transactions).where(where))[0]?.n ?? 0;

  it('the demo cards carry months of transactions', async () => {
    const perAccount = await db()
      .select({
        accountId: accounts.id,
        n: count(transactions.id),
        first: sql<string>`min(${transactions.transactionDate})`,
      })
      .from(accounts)
      .leftJoin(transactions, eq(transactions.accountId, accounts.id))
      .groupBy(accounts.id);
    expect(perAccount.length).toBeGreaterThan(5);
    for (const a of perAccount) expect(a.n).toBeGreaterThan(20);
    const currencies = await db().selectDistinct({ c: transactions.currency }).from(transactions);
    expect(currencies.map((c) => c.c)).toEqual(expect.arrayContaining(['USD', 'EUR', 'JPY', 'BHD']));
  });

  it('imports a CSV file once: a second import is all duplicates (idempotent by reference)', async () => {
    const csv = file(
      'october.csv',
      [
        `${HEADER},terminal_id`,
        `OCT-1,${GRACE},2026-10-01,2026-10-02,Lufthansa,Frankfurt,DE,3008,412.50,EUR,0,T1`,
        `OCT-2,${GRACE.replace(/(\d{4})/g, '$1 ').trim()},2026-10-03,2026-10-03,"Park Hyatt, Tokyo",Tokyo,JP,3640,56000,JPY,5090,T2`,
        `OCT-3,${LUCIA},2026-10-04,2026-10-06,Gulf Hotel,Manama,BH,3502,-48.125,BHD,-4.375,T3`,
      ].join('\r\n'),
    );
    const before = await countOf();
    const first = await cp('transactions', 'import', csv);
    expect(first).toMatchObject({ code: 0, stdout: 'imported 3, duplicates 0, rejected 0\n' });
    expect(first.stderr).toBe('ignored columns: terminal_id\n');
    expect(await countOf()).toBe(before + 3);
    const rows = await db()
      .select()
      .from(transactions)
      .where(sql`${transactions.reference} like 'OCT-%'`)
      .orderBy(transactions.reference);
    expect(rows.map((r) => [r.reference, r.amount, r.currency, r.tax, r.status])).toEqual([
      ['OCT-1', 41250n, 'EUR', 0n, 'New'],
      ['OCT-2', 56000n, 'JPY', 5090n, 'New'],
      ['OCT-3', -48125n, 'BHD', -4375n, 'New'],
    ]);
    expect(rows[1]?.merchantName).toBe('Park Hyatt, Tokyo');

    const second = await cp('transactions', 'import', csv);
    expect(second).toMatchObject({ code: 0, stdout: 'imported 0, duplicates 3, rejected 0\n' });
    expect(await countOf()).toBe(before + 3);
    // The demo data's months and these three rows, each counted once in the spend roll-up.
    expect(await rollupDrift()).toBe(0);
    const imports = await db().select().from(transactionImports).orderBy(transactionImports.id);
    expect(imports.slice(-2).map((i) => [i.rows, i.imported, i.duplicates])).toEqual([
      [3, 3, 0],
      [3, 0, 3],
    ]);
  });

  it('refuses a file with a bad row whole: every problem by line and field, nothing written, exit 2', async () => {
    const csv = file(
      'bad.csv',
      [
        HEADER,
        `BAD-1,${GRACE},2026-10-01,2026-10-02,Shell,Columbus,US,5541,45.10,USD,`,
        `BAD-2,${GRACE},2026-10-01,2026-09-30,Shell,Columbus,US,5541,45.101,USD,`,
        `BAD-3,4000001234567890,2026-10-01,2026-10-02,Shell,Columbus,US,5541,45.10,USD,`,
        `BAD-4,${GRACE},2026-10-01,2026-10-02,Shell`,
      ].join('\n'),
    );
    const before = await countOf();
    const result = await cp('transactions', 'import', csv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('imported 0, duplicates 0, rejected 3\n');
    expect(result.stderr).toContain('line 3, posting_date: ');
    expect(result.stderr).toContain('line 3, amount: ');
    expect(result.stderr).toContain('line 4, account_number: ');
    expect(result.stderr).toContain('line 5: ');
    expect(result.stderr).toMatch(/file refused, nothing imported/);
    expect(result.stderr).not.toContain('4000001234567890');
    expect(await countOf()).toBe(before);
    expect(await countOf(sql`${transactions.reference} = 'BAD-1'`)).toBe(0);
  });

  it('checks every card against the accounts, and against the issuer named', async () => {
    const unknown = file(
      'unknown.csv',
      `${HEADER}\nU-1,4111111111111111,2026-10-01,2026-10-02,Shell,Columbus,US,5541,45.10,USD,\n`,
    );
    const refused = await cp('transactions', 'import', unknown);
    expect([refused.code, refused.stdout]).toEqual([2, 'imported 0, duplicates 0, rejected 1\n']);
    expect(refused.stderr).toContain('line 2, account_number: ');

    const mixed = file(
      'mixed.csv',
      `${HEADER}\nM-1,${GRACE},2026-10-01,2026-10-02,Shell,Columbus,US,5541,45.10,USD,\nM-2,${LUCIA},2026-10-01,2026-10-02,Repsol,Zaragoza,ES,5541,45.10,EUR,7.83\n`,
    );
    const norte = await cp('transactions', 'import', mixed, '--issuer', '2001');
    expect([norte.code, norte.stdout]).toEqual([2, 'imported 0, duplicates 0, rejected 1\n']);
    expect(norte.stderr).toContain('line 2, account_number: ');
    const nobody = await cp('transactions', 'import', mixed, '--issuer', '9999');
    expect(nobody.code).toBe(2);
    const any = await cp('transactions', 'import', mixed);
    expect(any).toMatchObject({ code: 0, stdout: 'imported 2, duplicates 0, rejected 0\n' });
  });

  it('refuses what is not a transaction file: no header, a broken quote, an empty file, a DOCTYPE', async () => {
    for (const [name, text] of [
      ['noheader.csv', `OCT-9,${GRACE},2026-10-01,2026-10-02,Shell,Columbus,US,5541,45.10,USD,\n`],
      ['quote.csv', `${HEADER}\nQ-1,${GRACE},2026-10-01,2026-10-02,"Shell,Columbus,US,5541,45.10,USD,\n`],
      ['empty.csv', `${HEADER}\n`],
      ['entity.xml', '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x "y">]><Transactions/>'],
      ['broken.xml', '<Transactions><Transaction><reference>X</Transaction>'],
    ] as const) {
      const result = await cp('transactions', 'import', file(name, text));
      expect([name, result.code]).toEqual([name, 2]);
      expect(result.stdout).toMatch(/^imported 0, /);
    }
  });

  it('imports the XML form: one Transaction element per record, other elements ignored', async () => {
    const xml = file(
      'november.xml',
      `<?xml version="1.0" encoding="UTF-8"?>
<Transactions xmlns="urn:example:corporate-data">
  <Transaction>
    <reference>NOV-1</reference><account_number>${GRACE}</account_number>
    <transaction_date>2026-11-02</transaction_date><posting_date>2026-11-03</posting_date>
    <merchant_name><![CDATA[Ben & Jerry's]]></merchant_name><merchant_city>Burlington</merchant_city>
    <merchant_country>US</merchant_country><mcc>5814</mcc><amount>12.40</amount><currency>USD</currency>
    <terminal>T-77</terminal>
  </Transaction>
  <Transaction>
    <reference>NOV-2</reference><account_number>${LUCIA}</account_number>
    <transaction_date>2026-11-02</transaction_date><posting_date>2026-11-02</posting_date>
    <merchant_name>Caf&#233; Gij&#243;n</merchant_name><merchant_country>ES</merchant_country>
    <mcc>5812</mcc><amount>18.00</amount><currency>EUR</currency><tax_amount>1.64</tax_amount>
  </Transaction>
</Transactions>`,
    );
    const result = await cp('transactions', 'import', xml);
    expect(result).toMatchObject({ code: 0, stdout: 'imported 2, duplicates 0, rejected 0\n' });
    expect(result.stderr).toBe('ignored columns: terminal\n');
    const names = await db()
      .select({ name: transactions.merchantName })
      .from(transactions)
      .where(sql`${transactions.reference} in ('NOV-1', 'NOV-2')`)
      .orderBy(transactions.reference);
    expect(names.map((n) => n.name)).toEqual(["Ben & Jerry's", 'Café Gijón']);
  });

  it('streams a large file in one transaction, duplicates within it counted once', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 12_000; i++)
      lines.push(
        `BULK-${i % 11_000},${i % 2 ? GRACE : LUCIA},2026-09-01,2026-09-02,Tab\\Merchant,City,US,5999,${i + 1}.00,USD,0.00`,
      );
    const before = await countOf();
    const report = await importTransactions(
      ctx.services.database,
      ctx.services.secrets.cards,
      (async function* () {
        for (let i = 0; i < lines.length; i += 997)
          yield Buffer.from(`${lines.slice(i, i + 997).join('\n')}\n`);
      })(),
      // Chunks of 5,000: the duplicates of rows 11,000 and on fall in a later chunk than their first.
      { format: 'csv', fileName: 'bulk.csv', chunkRows: 5_000 },
    );
    expect(report).toMatchObject({
      outcome: 'imported',
      rows: 12_000,
      imported: 11_000,
      duplicates: 1_000,
      rejected: 0,
    });
    expect(await countOf()).toBe(before + 11_000);
    const [one] = await db().select().from(transactions).where(eq(transactions.reference, 'BULK-7'));
    expect(one?.merchantName).toBe('Tab\\Merchant');
    // The spend roll-up followed every chunk, the direct COPYs and the staged inserts alike.
    expect(await rollupDrift()).toBe(0);
  });

  it('refuses a file whose bad row comes after rows already written: nothing of it stays', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 7_000; i++)
      lines.push(`LATE-${i},${GRACE},2026-09-01,2026-09-02,Shell,Columbus,US,5541,1.00,USD,`);
    lines.push(`LATE-X,4111111111111111,2026-09-01,2026-09-02,Shell,Columbus,US,5541,1.00,USD,`);
    const report = await importTransactions(
      ctx.services.database,
      ctx.services.secrets.cards,
      [Buffer.from(lines.join('\n'))],
      { format: 'csv', fileName: 'late.csv', chunkRows: 2_000 },
    );
    expect(report).toMatchObject({ outcome: 'refused', imported: 0, rejected: 1, rows: 7_001 });
    expect(report.problems).toEqual([
      { line: 7_002, field: 'account_number', problem: 'transactions.account.unknown' },
    ]);
    expect(await countOf(sql`${transactions.reference} like 'LATE-%'`)).toBe(0);
  });

  it('never writes the card number: not in the audit trail, not in the imports', async () => {
    const events = await db()
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.event} like 'transactions.%'`);
    expect(events.length).toBeGreaterThan(3);
    const everything = JSON.stringify([events, await db().select().from(transactionImports)]);
    for (const number of [GRACE, LUCIA, '4111111111111111']) expect(everything).not.toContain(number);
  });
});
