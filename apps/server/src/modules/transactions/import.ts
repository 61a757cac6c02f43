import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { checkTransactionRecord, TRANSACTION_LIMITS, type TransactionRecord } from '@cardportal/domain';
import type { BulkSession, Database } from '../../db/client.ts';
import type { CardVault } from '../../kernel/card-vault.ts';
import {
  csvRecords,
  type FileHeader,
  type FileRecord,
  FileRefused,
  type TransactionFileFormat,
  xmlRecords,
} from './file-records.ts';

/**
 * Importing an issuer's transaction file (DESIGN §7 "Transactions", docs/transactions.md):
 *
 * - streamed: the file is read a record at a time (file-records.ts) and every checked row goes straight
 *   into a temporary staging table — by COPY on PostgreSQL, in batches on the embedded database — so
 *   memory stays flat whatever the file's size;
 * - checked per row (packages/domain checkTransactionRecord), then as a set in SQL: every card number
 *   must be an account's (found by its keyed hash, never by the number) and, with `issuer`, that
 *   issuer's;
 * - all or nothing: everything happens in one database transaction (Database.bulk). One bad row and the
 *   file changes nothing — the report names every bad row's line, field and problem; a crash or a
 *   killed process mid-file leaves nothing behind either;
 * - idempotent: a transaction is the issuer's `reference`; a reference already imported (or repeated in
 *   the file) is a duplicate, counted and skipped, so a second import of a file adds nothing.
 *
 * The full card number is hashed on arrival and never stored, logged or reported.
 */

export interface ImportOptions {
  format: TransactionFileFormat;
  fileName: string;
  /** The issuer the file comes from (its number): every account must be its. Unset: any issuer's. */
  issuerNumber?: string | undefined;
  /** The signed-in user who uploaded the file (null: the CLI). */
  byUserPk?: number | null;
  /** Rows per chunk (default CHUNK_ROWS); the tests make files span several with small ones. */
  chunkRows?: number;
}

export interface RowProblem {
  line: number;
  field?: string;
  /** A message key (`validation.{problem}`). */
  problem: string;
}

export interface ImportReport {
  /** `imported`: the file was taken (possibly with nothing new in it); `refused`: it changed nothing. */
  outcome: 'imported' | 'refused';
  format: TransactionFileFormat;
  fileSha256: string;
  /** Records read (the header not counted). */
  rows: number;
  imported: number;
  duplicates: number;
  /** Rows with at least one problem. */
  rejected: number;
  /** The problems, by line; at most TRANSACTION_LIMITS.reportMaxProblems of them. */
  problems: RowProblem[];
  /** Columns or elements of the file that are not ours: ignored. */
  ignored: string[];
  /** Why the whole file was refused, when it was not because of its rows. */
  fileProblem?: { problem: string; line?: number };
  importId?: number;
  issuerId?: number | null;
}

/** Thrown inside the bulk transaction to roll it back with a report. */
class Refusal extends Error {
  constructor(readonly report: ImportReport) {
    super('refused');
  }
}

const STAGING_COLUMNS = [
  'line',
  'reference',
  'hash',
  'transaction_date',
  'posting_date',
  'merchant_name',
  'merchant_city',
  'merchant_country',
  'mcc',
  'amount',
  'currency',
  'tax',
] as const;

const CREATE_STAGING = `create temp table import_staging (
  line integer not null,
  reference text not null,
  hash text not null,
  transaction_date date not null,
  posting_date date not null,
  merchant_name text not null,
  merchant_city text not null,
  merchant_country text not null,
  mcc text not null,
  amount bigint not null,
  currency text not null,
  tax bigint not null
) on commit drop`;

/** Rows per batch where there is no COPY (the embedded database): one statement each. */
const BATCH_ROWS = 2000;
/**
 * Rows per chunk: each is staged, checked against the accounts and inserted while the next is read,
 * so the database writes while the file is parsed (the staging table is emptied after each).
 */
const CHUNK_ROWS = 25_000;
/** Rows parsed between two turns of the event loop. */
const YIELD_ROWS = 500;
/** COPY text is written in chunks of about this size. */
const COPY_CHUNK_BYTES = 256 * 1024;

type StagedRow = [
  number,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];

function stagedRow(line: number, t: TransactionRecord, hash: string): StagedRow {
  return [
    line,
    t.reference,
    hash,
    t.transactionDate,
    t.postingDate,
    t.merchantName,
    t.merchantCity,
    t.merchantCountry,
    t.mcc,
    t.amount.toString(),
    t.currency,
    t.tax.toString(),
  ];
}

/** COPY's text format: tab-separated, with backslash, tab, new line and carriage return escaped. */
const copyEscape = (value: string) =>
  /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : value;

/** Writes one chunk's rows into the (empty) staging table: COPY, or batched inserts. */
type ChunkWriter = (rows: StagedRow[]) => Promise<void>;

type CopySession = BulkSession & { copyFrom: NonNullable<BulkSession['copyFrom']> };

/**
 * COPY FROM STDIN of `rows` into `table (columns)`, in COPY's text format, written in ~256 KB pieces
 * with back-pressure. The first value of a row is a number; the others are text.
 */
async function copyRows(
  session: CopySession,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): Promise<void> {
  const stream = session.copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`);
  const failed = once(stream, 'error').then(([error]) => {
    throw error;
  });
  failed.catch(() => {});
  let buffer = '';
  for (const row of rows) {
    let line = String(row[0]);
    for (let i = 1; i < row.length; i++) {
      const value = row[i] as string | number;
      line += `\t${typeof value === 'number' ? value : copyEscape(value)}`;
    }
    buffer += `${line}\n`;
    if (buffer.length >= COPY_CHUNK_BYTES) {
      if (!stream.write(buffer)) await Promise.race([once(stream, 'drain'), failed]);
      buffer = '';
    }
  }
  if (buffer.length > 0) stream.write(buffer);
  stream.end();
  await Promise.race([once(stream, 'finish'), failed]);
}

/** The staging table by COPY (PostgreSQL). */
const copyWriter =
  (session: CopySession): ChunkWriter =>
  (rows) =>
    copyRows(session, 'import_staging', STAGING_COLUMNS, rows);

/** The columns a chunk is copied into `transactions` with, on the fast path. */
const TRANSACTION_COLUMNS = [
  'issuer_id',
  'company_id',
  'account_id',
  'reference',
  'transaction_date',
  'posting_date',
  'merchant_name',
  'merchant_city',
  'merchant_country',
  'mcc',
  'amount',
  'currency',
  'tax',
  'import_id',
] as const;

/** A card account as the import needs it: found by the number's keyed hash. */
interface ImportAccount {
  id: number;
  companyId: number;
  issuerId: number;
}

/** The embedded database (no COPY): inserts of BATCH_ROWS rows each, as one JSON parameter. */
function batchWriter(session: BulkSession): ChunkWriter {
  const types =
    'line int, reference text, hash text, transaction_date date, posting_date date, merchant_name text, merchant_city text, merchant_country text, mcc text, amount bigint, currency text, tax bigint';
  return async (rows) => {
    for (let i = 0; i < rows.length; i += BATCH_ROWS) {
      const batch = rows
        .slice(i, i + BATCH_ROWS)
        .map((row) => Object.fromEntries(STAGING_COLUMNS.map((c, j) => [c, row[j]])));
      await session.query(
        `insert into import_staging select * from json_to_recordset($1::json) as r(${types})`,
        [JSON.stringify(batch)],
      );
    }
  };
}

/** Tees the file through SHA-256 on its way to the reader. */
async function* hashing(
  source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  hash: ReturnType<typeof createHash>,
) {
  for await (const chunk of source) {
    hash.update(chunk);
    yield chunk;
  }
}

/**
 * Imports one file (see above). Resolves with the report in every case the file itself decides
 * (refused or imported); rejects only when the database or the source fails (then nothing is written).
 */
export async function importTransactions(
  database: Database,
  vault: CardVault,
  source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: ImportOptions,
): Promise<ImportReport> {
  const sha = createHash('sha256');
  const maxProblems = TRANSACTION_LIMITS.reportMaxProblems;
  const report: ImportReport = {
    outcome: 'refused',
    format: options.format,
    fileSha256: '',
    rows: 0,
    imported: 0,
    duplicates: 0,
    rejected: 0,
    problems: [],
    ignored: [],
  };
  // A file names the same cards again and again, and an HMAC costs microseconds: each number's hash is
  // remembered for this import only (the numbers leave memory with it), up to a few thousand cards.
  const hashes = new Map<string, string>();
  const hashOf = (number: string) => {
    let hash = hashes.get(number);
    if (hash === undefined) {
      hash = vault.hashOf(number);
      if (hashes.size >= 10_000) hashes.clear();
      hashes.set(number, hash);
    }
    return hash;
  };
  const problem = (p: RowProblem) => {
    if (report.problems.length < maxProblems) report.problems.push(p);
  };
  try {
    return await database.bulk(async (session) => {
      let issuerId: number | null = null;
      if (options.issuerNumber !== undefined) {
        const { rows } = await session.query<{ id: number }>('select id from issuers where number = $1', [
          options.issuerNumber,
        ]);
        if (!rows[0]) {
          report.fileProblem = { problem: 'transactions.issuer.unknown' };
          throw new Refusal(report);
        }
        issuerId = rows[0].id;
      }
      await session.query(CREATE_STAGING);
      const { rows: created } = await session.query<{ id: number }>(
        `insert into transaction_imports (issuer_id, file_name, file_sha256, format, rows, imported, duplicates, by_user_pk)
         values ($1, $2, '', $3, 0, 0, 0, $4) returning id`,
        [issuerId, options.fileName, options.format, options.byUserPk ?? null],
      );
      const importId = created[0]?.id as number;
      const copy = session.copyFrom ? (session as CopySession) : undefined;
      const write = copy ? copyWriter(copy) : batchWriter(session);
      const issuersSeen = new Set<number>();
      let unknownRows = 0;
      // The accounts of the cards the file names, by keyed hash (null: no such account), for this
      // import only; a file names the same cards again and again.
      const accounts = new Map<string, ImportAccount | null>();
      // PostgreSQL: a chunk goes straight into transactions by COPY (the fast path) until one meets a
      // reference already there or repeated in the file; that chunk and the rest go the staged way.
      let direct = copy !== undefined;

      /** Finds the accounts of the chunk's card hashes not met before (one query per chunk). */
      const resolve = async (rows: StagedRow[]) => {
        const wanted = [...new Set(rows.map((row) => row[2]).filter((hash) => !accounts.has(hash)))];
        if (wanted.length === 0) return;
        if (accounts.size + wanted.length > 20_000) accounts.clear();
        const { rows: found } = await session.query<{
          hash: string;
          id: number;
          company_id: number;
          issuer_id: number;
        }>(
          `select a.number_hash as hash, a.id, a.company_id, c.issuer_id
             from accounts a join companies c on c.id = a.company_id
            where a.number_hash = any($1::text[])`,
          [wanted],
        );
        for (const hash of wanted) accounts.set(hash, null);
        for (const row of found)
          accounts.set(row.hash, { id: row.id, companyId: row.company_id, issuerId: row.issuer_id });
      };

      /** The staged way: COPY (or batches) into staging, then insert … on conflict do nothing. */
      const staged = async (rows: StagedRow[]) => {
        await write(rows);
        // The cards again, in SQL: an account removed since it was found must not pass for a duplicate.
        const { rows: gone } = await session.query<{ line: number }>(
          `select s.line from import_staging s
             left join accounts a on a.number_hash = s.hash
            where a.id is null order by s.line`,
        );
        if (gone.length > 0) {
          unknownRows += gone.length;
          for (const row of gone)
            problem({ line: row.line, field: 'account_number', problem: 'transactions.account.unknown' });
          await session.query('truncate import_staging');
          return;
        }
        const inserted = await session.query(
          `insert into transactions (issuer_id, company_id, account_id, reference, transaction_date, posting_date,
              merchant_name, merchant_city, merchant_country, mcc, amount, currency, tax, import_id)
           select c.issuer_id, a.company_id, a.id, s.reference, s.transaction_date, s.posting_date,
              s.merchant_name, s.merchant_city, s.merchant_country, s.mcc, s.amount, s.currency, s.tax, $1
             from import_staging s
             join accounts a on a.number_hash = s.hash
             join companies c on c.id = a.company_id
           on conflict (issuer_id, reference) do nothing`,
          [importId],
        );
        report.imported += inserted.affectedRows;
        await session.query('truncate import_staging');
      };

      /**
       * One chunk on the connection: its cards checked (every number an account's, and the issuer's
       * when named) and — while the file has no problem — the chunk written into transactions,
       * duplicates skipped. The next chunk is parsed meanwhile.
       */
      const writeChunk = async (rows: StagedRow[]) => {
        await resolve(rows);
        for (const row of rows) {
          const account = accounts.get(row[2]);
          if (account && (issuerId === null || account.issuerId === issuerId)) continue;
          unknownRows++;
          problem({
            line: row[0],
            field: 'account_number',
            problem: account ? 'transactions.account.otherIssuer' : 'transactions.account.unknown',
          });
        }
        if (report.rejected > 0 || unknownRows > 0) return;
        for (const row of rows) issuersSeen.add((accounts.get(row[2]) as ImportAccount).issuerId);
        if (copy && direct) {
          await session.query('savepoint import_chunk');
          try {
            await copyRows(
              copy,
              'transactions',
              TRANSACTION_COLUMNS,
              rows.map((row) => {
                const account = accounts.get(row[2]) as ImportAccount;
                return [
                  account.issuerId,
                  account.companyId,
                  account.id,
                  row[1],
                  row[3],
                  row[4],
                  row[5],
                  row[6],
                  row[7],
                  row[8],
                  row[9],
                  row[10],
                  row[11],
                  importId,
                ];
              }),
            );
            await session.query('release savepoint import_chunk');
            report.imported += rows.length;
            return;
          } catch (error) {
            // A reference already imported or repeated (23505), or an account gone meanwhile (23503):
            // the chunk is undone and takes the staged way, which skips duplicates and re-checks cards.
            const code = (error as { code?: string }).code;
            if (code !== '23505' && code !== '23503') throw error;
            await session.query('rollback to savepoint import_chunk');
            direct = false;
          }
        }
        await staged(rows);
      };

      const header: FileHeader = { ignored: [] };
      const records: AsyncGenerator<FileRecord> =
        options.format === 'xml'
          ? xmlRecords(hashing(source, sha), header)
          : csvRecords(hashing(source, sha), header);
      let chunk: StagedRow[] = [];
      // The previous chunk's database work, running while this chunk is read.
      let inFlight: Promise<void> = Promise.resolve();
      const hand = async () => {
        const rows = chunk;
        chunk = [];
        if (rows.length === 0) return;
        await inFlight;
        inFlight = writeChunk(rows);
        inFlight.catch(() => {});
      };
      try {
        for await (const record of records) {
          report.rows++;
          if (record.problem) {
            report.rejected++;
            problem({ line: record.line, problem: record.problem });
            continue;
          }
          const checked = checkTransactionRecord(record.fields);
          if ('problems' in checked) {
            report.rejected++;
            for (const p of checked.problems)
              problem({ line: record.line, field: p.field, problem: p.problem });
            continue;
          }
          chunk.push(stagedRow(record.line, checked.transaction, hashOf(checked.transaction.accountNumber)));
          // Let the connection's I/O in now and then (a COPY's drain): the parser would otherwise run
          // through whole buffers of the file while the database waits for its next piece.
          if (chunk.length % YIELD_ROWS === 0) await new Promise((resolve) => setImmediate(resolve));
          if (chunk.length >= (options.chunkRows ?? CHUNK_ROWS)) await hand();
        }
        await hand();
        await inFlight;
      } catch (error) {
        await inFlight.catch(() => {});
        if (error instanceof FileRefused) {
          report.fileProblem = { problem: error.problem, ...(error.line ? { line: error.line } : {}) };
          throw new Refusal(report);
        }
        throw error;
      }
      report.ignored = header.ignored;
      report.fileSha256 = sha.digest('hex');
      if (report.rows === 0) {
        report.fileProblem = { problem: 'transactions.file.empty' };
        throw new Refusal(report);
      }
      if (unknownRows > 0 || report.rejected > 0) {
        report.rejected += unknownRows;
        report.imported = 0;
        report.problems.sort((x, y) => x.line - y.line);
        throw new Refusal(report);
      }
      if (issuerId === null && issuersSeen.size === 1) issuerId = [...issuersSeen][0] ?? null;
      report.duplicates = report.rows - report.imported;
      await session.query(
        `update transaction_imports set issuer_id = $2, file_sha256 = $3, rows = $4, imported = $5, duplicates = $6
          where id = $1`,
        [importId, issuerId, report.fileSha256, report.rows, report.imported, report.duplicates],
      );
      report.outcome = 'imported';
      report.importId = importId;
      report.issuerId = issuerId;
      return report;
    });
  } catch (error) {
    if (error instanceof Refusal) return error.report;
    throw error;
  }
}
