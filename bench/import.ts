/**
 * Transaction import at scale (issue 15 "Performance", DESIGN §7, docs/transactions.md): a canonical
 * CSV file of N rows over 1,000 card accounts, imported into PostgreSQL by the product's own
 * importTransactions (streamed, checked per row, keyed-hash account lookup, COPY into staging, one
 * insert … on conflict), against a bare `COPY … FROM STDIN (FORMAT csv)` of the same file into a table
 * of the same columns in the same run — the floor no import can beat. Also measured: the resident
 * memory the import adds (sampled every 50 ms; the file is on disk, never in memory) and a second import
 * of the same file (all duplicates).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { toMajorUnits } from '@cardportal/domain';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { migrate, openPglite, openPostgres } from '../apps/server/src/db/client.ts';
import { demoAccountNumber } from '../apps/server/src/demo/organisations.ts';
import { CardVault } from '../apps/server/src/kernel/card-vault.ts';
import { importTransactions } from '../apps/server/src/modules/transactions/index.ts';
import { type Budget, type Effort, POSTGRES_ADMIN_URL, root, type Section } from './lib.ts';

const PLANS: Record<Effort, { rows: number }> = {
  smoke: { rows: 5_000 },
  quick: { rows: 200_000 },
  full: { rows: 1_000_000 },
};
const ACCOUNTS = 1_000;
const HEADER =
  'reference,account_number,transaction_date,posting_date,merchant_name,merchant_city,merchant_country,mcc,amount,currency,tax_amount';
const MERCHANTS = [
  ['Lufthansa', 'Frankfurt', 'DE', '3008', 'EUR'],
  ['Hilton Garden Inn', 'Boston', 'US', '3504', 'USD'],
  ['Park Hyatt Tokyo', 'Tokyo', 'JP', '3640', 'JPY'],
  ['Gulf Hotel', 'Manama', 'BH', '3502', 'BHD'],
  ['Shell', 'Columbus', 'US', '5541', 'USD'],
  ['"Ruth\'s Chris, Steak House"', 'Chicago', 'US', '5812', 'USD'],
] as const;

/** Rows imported into the embedded database (it holds everything in this process's memory). */
const PGLITE_ROWS: Record<Effort, number> = { smoke: 2_000, quick: 100_000, full: 200_000 };

/** The first `rows` of the file into a fresh in-memory PGlite with the same 1,000 accounts. */
async function embeddedImport(file: string, rows: number, vault: CardVault) {
  const database = await openPglite('memory://');
  try {
    await migrate(database, `${root}/apps/server/drizzle`);
    const session = database.pglite;
    if (!session) throw new Error('no embedded database');
    const { rows: issuer } = await session.query<{ id: number }>(
      `insert into issuers (number, name1, ica, bank_number) values ('9001', 'Bench Bank', '99999', '0001') returning id`,
    );
    const { rows: company } = await session.query<{ id: number }>(
      `insert into companies (issuer_id, number, name1) values ($1, '900001', 'Bench Co') returning id`,
      [issuer[0]?.id],
    );
    for (let i = 1; i <= ACCOUNTS; i++) {
      const sealed = vault.seal(demoAccountNumber(i));
      await session.query(
        `insert into accounts (company_id, number_cipher, number_hash, bin, number_length, last4) values ($1, $2, $3, $4, $5, $6)`,
        [company[0]?.id, sealed.cipher, sealed.hash, sealed.bin, sealed.length, sealed.last4],
      );
    }
    const lines = (await readFile(file, 'utf8'))
      .split('\n')
      .slice(0, rows + 1)
      .join('\n');
    const started = process.hrtime.bigint();
    const report = await importTransactions(database, vault, [lines], {
      format: 'csv',
      fileName: 'bench.csv',
    });
    const took = seconds(started);
    if (report.imported !== rows)
      throw new Error(`embedded import: ${report.outcome}, ${report.imported} rows`);
    return { rows, seconds: took, rowsPerSecond: Math.round(rows / took) };
  } finally {
    await database.close();
  }
}

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

async function writeFile(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${HEADER}\n`);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const [name, city, country, mcc, currency] = MERCHANTS[
      i % MERCHANTS.length
    ] as (typeof MERCHANTS)[number];
    const minor = BigInt(1000 + ((i * 7919) % 500_000));
    const day = 1 + (i % 28);
    chunk += `B${i},${demoAccountNumber(1 + (i % ACCOUNTS))},2026-10-${String(day).padStart(2, '0')},2026-10-${String(Math.min(28, day + 1)).padStart(2, '0')},${name},${city},${country},${mcc},${toMajorUnits(minor, currency)},${currency},${toMajorUnits(minor / 10n, currency)}\n`;
    if (chunk.length > 1 << 16) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
}

export async function importBench(effort: Effort): Promise<Section> {
  const plan = PLANS[effort];
  const name = `cp_bench_import_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'cp-bench-import-'));
  const database = openPostgres(url.toString(), 4);
  try {
    await migrate(database, `${root}/apps/server/drizzle`);
    const vault = new CardVault([{ id: 'bench', key: randomBytes(32) }], randomBytes(32));
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const { rows: issuer } = await client.query(
        `insert into issuers (number, name1, ica, bank_number) values ('9001', 'Bench Bank', '99999', '0001') returning id`,
      );
      const { rows: company } = await client.query(
        `insert into companies (issuer_id, number, name1) values ($1, '900001', 'Bench Co') returning id`,
        [issuer[0].id],
      );
      const values: string[] = [];
      const params: unknown[] = [];
      for (let i = 1; i <= ACCOUNTS; i++) {
        const sealed = vault.seal(demoAccountNumber(i));
        const at = params.length;
        values.push(`($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`);
        params.push(company[0].id, sealed.cipher, sealed.hash, sealed.bin, sealed.length, sealed.last4);
      }
      await client.query(
        `insert into accounts (company_id, number_cipher, number_hash, bin, number_length, last4) values ${values.join(', ')}`,
        params,
      );
      await client.query(
        `create table bare_copy (reference text, account_number text, transaction_date date, posting_date date,
          merchant_name text, merchant_city text, merchant_country text, mcc text, amount numeric, currency text, tax_amount numeric)`,
      );

      const file = path.join(dir, 'transactions.csv');
      await writeFile(file, plan.rows);
      const bytes = statSync(file).size;

      // The floor: PostgreSQL reading the same file itself.
      const copyStarted = process.hrtime.bigint();
      await pipeline(
        createReadStream(file, { highWaterMark: 256 * 1024 }),
        client.query(copyFrom('copy bare_copy from stdin (format csv, header true)')),
      );
      const copySeconds = seconds(copyStarted);
      // What the database itself must do for the same rows: COPY into a table like transactions (its
      // indexes, unique key and checks), the rows already resolved to accounts (no parsing or lookup).
      await client.query('create table indexed_copy (like transactions including all)');
      await client.query(`create temp table resolved as
        select ${company[0].id} as company_id, ${issuer[0].id} as issuer_id, a.id as account_id, b.*
          from bare_copy b join accounts a on a.last4 = right(b.account_number, 4) and a.bin = left(b.account_number, 6)`);
      const resolvedFile = path.join(dir, 'resolved.tsv');
      {
        const out = createWriteStream(resolvedFile);
        await pipeline(
          client.query(
            copyTo(`copy (select issuer_id, company_id, account_id, reference, transaction_date, posting_date,
              merchant_name, merchant_city, merchant_country, mcc, (amount * 100)::bigint, currency, (tax_amount * 100)::bigint
              from resolved) to stdout`),
          ),
          out,
        );
      }
      const indexedStarted = process.hrtime.bigint();
      await pipeline(
        createReadStream(resolvedFile, { highWaterMark: 256 * 1024 }),
        client.query(
          copyFrom(`copy indexed_copy (issuer_id, company_id, account_id, reference, transaction_date, posting_date,
            merchant_name, merchant_city, merchant_country, mcc, amount, currency, tax) from stdin`),
        ),
      );
      const indexedSeconds = seconds(indexedStarted);

      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 50);
      const importStarted = process.hrtime.bigint();
      const report = await importTransactions(
        database,
        vault,
        createReadStream(file, { highWaterMark: 256 * 1024 }),
        { format: 'csv', fileName: 'bench.csv' },
      );
      const importSeconds = seconds(importStarted);
      clearInterval(sampler);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      if (report.outcome !== 'imported' || report.imported !== plan.rows)
        throw new Error(
          `import refused: ${JSON.stringify({ ...report, problems: report.problems.slice(0, 3) })}`,
        );

      const againStarted = process.hrtime.bigint();
      const again = await importTransactions(database, vault, createReadStream(file), {
        format: 'csv',
        fileName: 'bench.csv',
      });
      const againSeconds = seconds(againStarted);
      if (again.imported !== 0 || again.duplicates !== plan.rows)
        throw new Error('second import was not all duplicates');

      // The embedded database (PGlite, in this process): the same file's first rows, no COPY there.
      const embedded = await embeddedImport(file, Math.min(plan.rows, PGLITE_ROWS[effort]), vault);

      const copyRate = plan.rows / copySeconds;
      const indexedRate = plan.rows / indexedSeconds;
      const importRate = plan.rows / importSeconds;
      const growth = mb(rssPeak - rssBefore);
      const budgets: Budget[] = [
        {
          name: 'import ≥ 50 % of a bare COPY of the same rows into a table like transactions',
          ok: importRate >= indexedRate * 0.5,
          detail: `${Math.round(importRate).toLocaleString('en')} rows/s = ${Math.round((importRate / indexedRate) * 100)} % of ${Math.round(indexedRate).toLocaleString('en')} rows/s (unindexed COPY of the CSV: ${Math.round(copyRate).toLocaleString('en')} rows/s)`,
        },
        {
          name: 'import ≥ 100,000 rows/s',
          ok: importRate >= 100_000,
          detail: `${Math.round(importRate).toLocaleString('en')} rows/s (${plan.rows.toLocaleString('en')} rows)`,
        },
        {
          name: 'resident memory grows ≤ 150 MB importing the file',
          ok: growth <= 150,
          detail: `${growth} MB over ${mb(rssBefore)} MB (file ${mb(bytes)} MB, ${plan.rows.toLocaleString('en')} rows)`,
        },
      ];
      return {
        name: 'import',
        figures: {
          rows: plan.rows,
          fileMb: mb(bytes),
          copySeconds,
          importSeconds,
          duplicateImportSeconds: againSeconds,
          copyRowsPerSecond: Math.round(copyRate),
          indexedCopySeconds: indexedSeconds,
          indexedCopyRowsPerSecond: Math.round(indexedRate),
          importRowsPerSecond: Math.round(importRate),
          rssBeforeMb: mb(rssBefore),
          rssGrowthMb: growth,
          embedded,
        },
        table: [
          `file: ${plan.rows.toLocaleString('en')} rows, ${mb(bytes)} MB, ${ACCOUNTS} accounts`,
          `bare COPY (csv) into an unindexed table: ${copySeconds.toFixed(2)} s, ${Math.round(copyRate).toLocaleString('en')} rows/s`,
          `bare COPY of the resolved rows into a table like transactions: ${indexedSeconds.toFixed(2)} s, ${Math.round(indexedRate).toLocaleString('en')} rows/s`,
          `import: ${importSeconds.toFixed(2)} s, ${Math.round(importRate).toLocaleString('en')} rows/s (${Math.round((importRate / indexedRate) * 100)} % of the indexed COPY)`,
          `import again (all duplicates): ${againSeconds.toFixed(2)} s`,
          `resident memory: +${growth} MB over ${mb(rssBefore)} MB`,
          `embedded (PGlite): ${embedded.rows.toLocaleString('en')} rows in ${embedded.seconds.toFixed(2)} s, ${embedded.rowsPerSecond.toLocaleString('en')} rows/s`,
        ],
        budgets,
      };
    } finally {
      await client.end();
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
