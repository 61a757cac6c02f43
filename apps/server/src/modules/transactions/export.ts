import { PassThrough, Readable } from 'node:stream';
import {
  type CustomDateFormat,
  checkExportRange,
  EXPORTABLE_STATUSES,
  formatCustomDate,
  mccCategory,
  TRANSACTION_EXPORT_COLUMNS,
  type TransactionExport,
  type TransactionExportBody,
  type TransactionExportFormat,
  type TransactionExportList,
  toMajorUnits,
} from '@cardportal/domain';
import { stringify } from 'csv-stringify';
import { and, asc, eq, gt, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { type Db, type Executor, queryRows } from '../../db/client.ts';
import {
  accounts,
  cardholders,
  companies,
  issuers,
  transactionAllocations,
  transactionExportRows,
  transactionExports,
  transactionSplits,
  transactions,
  users,
} from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { lazy } from '../../kernel/lazy.ts';
import { type Keyset, keysetPage, type PageRequest } from '../../kernel/paging.ts';
import { formulaSafe } from '../../kernel/spreadsheet.ts';
import { companyScope } from '../access/index.ts';
import { type CustomFieldRow, companyCodes, customFieldsOf, valuesById } from '../accounting/index.ts';
import {
  allocationsOf,
  defaultsOfAccounts,
  type StoredLine,
  type StoredValue,
} from './allocation-repository.ts';
import { customValuesOf } from './custom-values.ts';
import { transactionColumns } from './repository.ts';
import { toTransaction } from './service.ts';

/** exceljs, at the first spreadsheet (kernel/lazy.ts). */
const excel = lazy(async () => (await import('exceljs')).default);

/**
 * The general-ledger export (issue 15 item 7, docs/transactions.md "Export"): one company's approved
 * (and locked) transactions over at most 30 days, not exported before unless asked again, recorded as an
 * export with its transactions and marked exported — all in one database transaction. The file is
 * written whenever it is asked for, from the export's own rows (so it reads the same every time), page
 * by page by key through a maintained writer (csv-stringify, exceljs' streaming writer): memory stays
 * bounded whatever the size. Cards only masked; text a spreadsheet could run as a formula neutralised;
 * amounts as exact decimal text in major units (never a float, so never a binary rounding).
 */

const MEDIA_TYPES: Record<TransactionExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Transactions read per page while a file is written. */
const FILE_PAGE = 2000;

const fileNameOf = (e: {
  id: number;
  companyNumber: string;
  fromDate: string;
  toDate: string;
  format: string;
}) =>
  `gl-export-${e.companyNumber.replace(/[^A-Za-z0-9_-]/g, '_')}-${e.fromDate}-${e.toDate}-${e.id}.${e.format}`;

const exportKeyset: Keyset<{ id: number }> = {
  list: 'transaction-exports',
  keys: [{ expr: transactionExports.id, type: 'int' }],
  direction: 'desc',
  keyOf: (row) => [row.id],
};

export class TransactionExportService {
  constructor(private readonly db: Db) {}

  /** The company an export is for: the caller's own for a company administrator, else the one named. */
  private async companyOf(db: Executor, caller: Caller, number: string | undefined) {
    const asked = number?.trim();
    if (!asked && caller.type !== 'C')
      throw new AppError('invalid', 'transactions.export.companyRequired', {
        message: 'Choose the company to export',
        fieldErrors: { company: 'transactions.export.companyRequired' },
      });
    const [row] = await db
      .select({ id: companies.id, number: companies.number, name: companies.name1 })
      .from(companies)
      .innerJoin(issuers, eq(issuers.id, companies.issuerId))
      .where(and(companyScope(caller), asked ? eq(companies.number, asked) : undefined))
      .limit(1);
    if (!row)
      throw new AppError('notFound', 'company.notFound', {
        message: 'No such company',
        fieldErrors: { company: 'company.notFound' },
      });
    return row;
  }

  async create(caller: Caller, body: TransactionExportBody, ip: string): Promise<TransactionExport> {
    const range = checkExportRange(body.from.trim(), body.to.trim());
    const [problem] = Object.values(range);
    if (problem) throw new AppError('invalid', problem, { fieldErrors: range });
    const from = body.from.trim();
    const to = body.to.trim();
    const byUserPk = caller.accessedBy?.pk ?? caller.userPk;
    const id = await this.db.transaction(async (tx) => {
      const company = await this.companyOf(tx, caller, body.company);
      const [created] = await tx
        .insert(transactionExports)
        .values({
          companyId: company.id,
          fromDate: from,
          toDate: to,
          format: body.format,
          transactions: 0,
          rows: 0,
          byUserPk,
        })
        .returning({ id: transactionExports.id });
      if (!created) throw new Error('the export was not recorded');
      // The export's transactions: approved or locked, in the range, not exported before (unless again);
      // taken in one statement and marked exported in the next, inside this transaction.
      const chosen = and(
        eq(transactions.companyId, company.id),
        gte(transactions.transactionDate, from),
        lte(transactions.transactionDate, to),
        inArray(transactions.status, [...EXPORTABLE_STATUSES]),
        body.again ? undefined : isNull(transactions.exportedAt),
      );
      await tx.execute(sql`insert into ${transactionExportRows} (export_id, transaction_date, transaction_id)
        select ${created.id}, ${transactions.transactionDate}, ${transactions.id} from ${transactions} where ${chosen}`);
      // A row per allocation line of each part (the whole, or each split line), one for a part without any.
      const [counted] = await queryRows<{ transactions: number; rows: number }>(
        tx,
        sql`with t as (
              select tr.id, tr.split_lines from ${transactionExportRows} r
              join ${transactions} tr on tr.id = r.transaction_id where r.export_id = ${created.id}),
            parts as (
              select t.id, s.line as part from t join ${transactionSplits} s on s.transaction_id = t.id
              where t.split_lines > 0
              union all select t.id, 0 from t where t.split_lines = 0)
            select (select count(*)::int from t) as transactions,
              coalesce(sum(greatest((select count(*) from ${transactionAllocations} a
                where a.transaction_id = parts.id and a.split_line = parts.part), 1)), 0)::int as rows
            from parts`,
      );
      const count = Number(counted?.transactions ?? 0);
      if (count === 0)
        throw new AppError('unprocessable', 'transactions.export.nothing', {
          message: 'No approved transactions to export in this period',
          fieldErrors: { from: 'transactions.export.nothing' },
        });
      await tx.execute(sql`update ${transactions} set exported_at = now(), updated_at = now()
        where ${transactions.id} in (select transaction_id from ${transactionExportRows}
          where export_id = ${created.id}) and ${transactions.exportedAt} is null`);
      await tx
        .update(transactionExports)
        .set({ transactions: count, rows: Number(counted?.rows ?? 0) })
        .where(eq(transactionExports.id, created.id));
      await auditAdmin(tx, 'transactions.exported', {
        actor: caller,
        entity: 'transactionExport',
        entityId: String(created.id),
        ip,
        detail: {
          company: company.number,
          from,
          to,
          format: body.format,
          transactions: count,
          again: body.again === true,
        },
      });
      return created.id;
    });
    const found = await this.find(caller, id);
    if (!found) throw new Error('the export just made is not visible');
    return found;
  }

  private selectExports(db: Executor) {
    return db
      .select({
        id: transactionExports.id,
        companyNumber: companies.number,
        companyName: companies.name1,
        fromDate: transactionExports.fromDate,
        toDate: transactionExports.toDate,
        format: transactionExports.format,
        transactions: transactionExports.transactions,
        rows: transactionExports.rows,
        createdAt: transactionExports.createdAt,
        createdBy: users.displayUserId,
      })
      .from(transactionExports)
      .innerJoin(companies, eq(companies.id, transactionExports.companyId))
      .innerJoin(issuers, eq(issuers.id, companies.issuerId))
      .leftJoin(users, eq(users.id, transactionExports.byUserPk))
      .$dynamic();
  }

  private toExport(
    row: Awaited<ReturnType<TransactionExportService['selectExports']>>[number],
  ): TransactionExport {
    return {
      id: row.id,
      companyNumber: row.companyNumber,
      companyName: row.companyName,
      from: row.fromDate,
      to: row.toDate,
      format: row.format as TransactionExportFormat,
      transactions: row.transactions,
      rows: row.rows,
      createdAt: row.createdAt.toISOString(),
      createdBy: row.createdBy,
      fileName: fileNameOf(row),
    };
  }

  private async find(caller: Caller, id: number): Promise<TransactionExport | undefined> {
    const [row] = await this.selectExports(this.db)
      .where(and(eq(transactionExports.id, id), companyScope(caller)))
      .limit(1);
    return row ? this.toExport(row) : undefined;
  }

  /** The exports of the companies in the caller's scope, newest first, by key. */
  async list(caller: Caller, query: Omit<PageRequest, 'limit'>): Promise<TransactionExportList> {
    const page = await keysetPage(exportKeyset, { ...query, limit: 20 }, (beyond) =>
      this.selectExports(this.db).where(and(companyScope(caller), beyond)),
    );
    return {
      rows: page.rows.map((r) => this.toExport(r)),
      nextCursor: page.nextCursor,
      prevCursor: page.prevCursor,
    };
  }

  /** An export's file, written as it is read (a stream), with its name and media type. */
  async file(
    caller: Caller,
    idText: string,
  ): Promise<{ fileName: string; mediaType: string; body: Readable }> {
    const id = /^\d{1,9}$/.test(idText) ? Number(idText) : undefined;
    const found = id === undefined ? undefined : await this.find(caller, id);
    if (!found || id === undefined)
      throw new AppError('notFound', 'transactions.export.notFound', { message: 'No such export' });
    const [owner] = await this.db
      .select({ companyId: transactionExports.companyId })
      .from(transactionExports)
      .where(eq(transactionExports.id, id));
    // The coding columns: the company's accounting codes, in ledger order (issue 16 item 6).
    const codes = owner ? await companyCodes(this.db, owner.companyId) : [];
    // Then the company's active custom data fields (issue 16 item 4), dates in each field's format.
    const fields = owner ? (await customFieldsOf(this.db, owner.companyId)).filter((f) => f.active) : [];
    const header = [
      ...TRANSACTION_EXPORT_COLUMNS,
      ...codes.map((c) => formulaSafe(c.name)),
      ...fields.map((f) => formulaSafe(f.label)),
    ];
    const rows = this.rowsOf(id, codes, fields);
    return {
      fileName: found.fileName,
      mediaType: MEDIA_TYPES[found.format],
      body: found.format === 'csv' ? csvStream(header, rows) : xlsxStream(header, rows),
    };
  }

  /**
   * The file's rows in order: per transaction, per part (the whole, or each line of its split), one row
   * per allocation line with its amount, tax share and coding — or one row with the account's default
   * coding when the part has no allocation of its own.
   */
  private async *rowsOf(
    exportId: number,
    codes: readonly { id: number }[],
    fields: readonly CustomFieldRow[],
  ): AsyncGenerator<string[]> {
    let after: { date: string; id: number } | undefined;
    for (;;) {
      const page = await this.db
        .select({ ...transactionColumns, companyNumber: companies.number })
        .from(transactionExportRows)
        .innerJoin(transactions, eq(transactions.id, transactionExportRows.transactionId))
        .innerJoin(companies, eq(companies.id, transactions.companyId))
        .innerJoin(accounts, eq(accounts.id, transactions.accountId))
        .leftJoin(cardholders, eq(cardholders.id, accounts.cardholderId))
        .where(
          and(
            eq(transactionExportRows.exportId, exportId),
            after
              ? or(
                  gt(transactionExportRows.transactionDate, after.date),
                  and(
                    eq(transactionExportRows.transactionDate, after.date),
                    gt(transactionExportRows.transactionId, after.id),
                  ),
                )
              : undefined,
          ),
        )
        .orderBy(asc(transactionExportRows.transactionDate), asc(transactionExportRows.transactionId))
        .limit(FILE_PAGE);
      if (page.length === 0) return;
      const splitIds = page.filter((r) => r.splitLines > 0).map((r) => r.id);
      const lines = new Map<number, { line: number; amount: bigint; tax: bigint; description: string }[]>();
      if (splitIds.length > 0) {
        const found = await this.db
          .select({
            transactionId: transactionSplits.transactionId,
            line: transactionSplits.line,
            amount: transactionSplits.amount,
            tax: transactionSplits.tax,
            description: transactionSplits.description,
          })
          .from(transactionSplits)
          .where(inArray(transactionSplits.transactionId, splitIds))
          .orderBy(asc(transactionSplits.transactionId), asc(transactionSplits.line));
        for (const l of found) lines.set(l.transactionId, [...(lines.get(l.transactionId) ?? []), l]);
      }
      const allocations = await allocationsOf(
        this.db,
        page.map((r) => r.id),
      );
      const defaults = await defaultsOfAccounts(this.db, [...new Set(page.map((r) => r.accountId))]);
      const names = await valuesById(
        this.db,
        [...allocations.flatMap((l) => l.values), ...[...defaults.values()].flat()]
          .map((v) => v.valueId)
          .filter((v): v is number => v !== null),
      );
      const coding = (values: readonly StoredValue[]) =>
        codes.map((c) => {
          const v = values.find((x) => x.codeId === c.id);
          if (!v) return '';
          return formulaSafe(v.valueId !== null ? (names.get(v.valueId)?.value ?? '') : (v.text ?? ''));
        });
      const custom = await customValuesOf(
        this.db,
        page.map((r) => r.id),
      );
      for (const row of page) {
        const view = toTransaction(row);
        const own = custom.get(row.id);
        const extra = fields.map((f) => {
          const v = own?.get(f.id);
          if (v === undefined) return '';
          return f.type === 'date' ? formatCustomDate(v, f.dateFormat as CustomDateFormat) : formulaSafe(v);
        });
        const base = (line: number, amount: bigint, tax: bigint, description: string): string[] => [
          formulaSafe(row.reference),
          String(line),
          row.transactionDate,
          row.postingDate,
          formulaSafe(row.companyNumber),
          view.account.maskedNumber,
          formulaSafe(view.account.cardholderName || (view.account.alias ?? '')),
          formulaSafe(row.merchantName),
          formulaSafe(row.merchantCity),
          row.merchantCountry,
          row.mcc,
          mccCategory(row.mcc),
          row.currency,
          toMajorUnits(amount, row.currency),
          toMajorUnits(tax, row.currency),
          formulaSafe(description),
          row.status,
          row.disputedAt ? 'yes' : 'no',
        ];
        const parts =
          (lines.get(row.id) ?? []).length > 0
            ? (lines.get(row.id) ?? []).map((l) => ({ ...l }))
            : [{ line: 0, amount: row.amount, tax: row.tax, description: '' }];
        for (const part of parts) {
          const allocated = allocations.filter(
            (a) => a.transactionId === row.id && a.splitLine === part.line,
          );
          if (allocated.length === 0) {
            yield [
              ...base(part.line, part.amount, part.tax, part.description),
              '0',
              '',
              ...coding(defaults.get(row.accountId) ?? []),
              ...extra,
            ];
            continue;
          }
          const taxes = taxShares(part.tax, part.amount, allocated);
          for (const [i, a] of allocated.entries())
            yield [
              ...base(part.line, a.amount, taxes[i] as bigint, part.description),
              String(a.position),
              a.percent === null ? '' : String(a.percent),
              ...coding(a.values),
              ...extra,
            ];
        }
      }
      const last = page[page.length - 1];
      if (!last || page.length < FILE_PAGE) return;
      after = { date: last.transactionDate, id: last.id };
    }
  }
}

/**
 * The part's tax shared over its allocation lines in proportion to their amounts, truncated toward zero,
 * the remainder on the last line: the shares total the tax exactly (DESIGN §7 "Money").
 */
function taxShares(tax: bigint, amount: bigint, lines: readonly StoredLine[]): bigint[] {
  if (amount === 0n) return lines.map(() => 0n);
  const shares = lines.map((l) => (tax * l.amount) / amount);
  shares[shares.length - 1] = (shares.at(-1) as bigint) + tax - shares.reduce((a, b) => a + b, 0n);
  return shares;
}

function csvStream(header: readonly string[], rows: AsyncGenerator<string[]>): Readable {
  const out = stringify({
    header: true,
    columns: [...header],
    record_delimiter: 'windows',
  });
  Readable.from(rows)
    .on('error', (err) => out.destroy(err))
    .pipe(out);
  return out;
}

function xlsxStream(header: readonly string[], rows: AsyncGenerator<string[]>): Readable {
  const out = new PassThrough();
  (async () => {
    const ExcelJS = await excel();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: false,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet('Transactions');
    sheet.addRow([...header]).commit();
    for await (const row of rows) sheet.addRow(row).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
