import {
  ACCOUNTING_LIMITS,
  ACCOUNTING_VALUE_FILE_COLUMNS,
  type AccountingValueUploadResult,
  customerCodeProblem,
  type UploadRowProblem,
  valueDescriptionProblem,
  valueKeyOf,
} from '@cardportal/domain';
import { parse } from 'csv-parse/sync';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { accountingValues } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { lazy } from '../../kernel/lazy.ts';
import { csvDocument, formulaSafe } from '../../kernel/spreadsheet.ts';
import { carriesVirusSignature, virusFound } from '../../kernel/uploads.ts';
import { looksLikeZip } from '../../kernel/xlsx.ts';
import { companyInScope, idOf } from '../accounts/index.ts';
import { type CodeRow, countValues, findCode, lockCode } from './repository.ts';

/** exceljs, at the first spreadsheet (kernel/lazy.ts). */
const excel = lazy(async () => (await import('exceljs')).default);

/**
 * A code's values as a file (issue 16 item 5, docs/accounting.md "Values as a file"): downloaded as CSV
 * or .xlsx in the upload's own columns, and uploaded back — CSV or .xlsx told by content (never by
 * name), read by maintained readers (csv-parse, exceljs), at most 4 MB, EICAR-checked, every row checked
 * by the rules of one value and the file as a whole (duplicates, parents, the code's limit), then all
 * of it written or none (a per-row report). A value the file names is created or updated; one it does
 * not name is left as it is. The downloaded file uploads back unchanged.
 */

const MEDIA_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** A cell the download made formula-safe (`'-12`) reads back as written (`-12`). */
const unformula = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

const YES = new Set(['yes', 'y', 'true', '1', 'active']);
const NO = new Set(['no', 'n', 'false', '0', 'inactive']);

interface FileValue {
  id: number;
  value: string;
  valueKey: string;
  description: string;
  parentId: number | null;
  active: boolean;
}

async function allValues(db: Executor, codeId: number): Promise<FileValue[]> {
  return db
    .select({
      id: accountingValues.id,
      value: accountingValues.value,
      valueKey: accountingValues.valueKey,
      description: accountingValues.description,
      parentId: accountingValues.parentId,
      active: accountingValues.active,
    })
    .from(accountingValues)
    .where(eq(accountingValues.codeId, codeId))
    .orderBy(asc(accountingValues.valueKey));
}

/** The file's rows as text: .xlsx (a ZIP) by exceljs, anything else as UTF-8 CSV by csv-parse. */
async function rowsOf(bytes: Uint8Array): Promise<string[][]> {
  if (looksLikeZip(bytes)) {
    const ExcelJS = await excel();
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
    } catch {
      throw unsupported();
    }
    const sheet = workbook.worksheets[0];
    if (!sheet) throw unsupported();
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row, number) => {
      const values = row.values as unknown[];
      rows[number - 1] = values.slice(1).map((v) => cellText(v));
    });
    return Array.from(rows, (row) => row ?? []);
  }
  const text = Buffer.from(bytes).toString('utf8');
  if (text.includes('\uFFFD') || text.includes('\u0000')) throw unsupported();
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
  } catch {
    throw unsupported();
  }
}

/** A cell's text as a person sees it (a number as written, a rich text's runs, a formula's result). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const v = value as { richText?: { text: string }[]; result?: unknown; text?: string };
  if (v.richText) return v.richText.map((r) => r.text).join('');
  if (v.result !== undefined) return cellText(v.result);
  if (typeof v.text === 'string') return v.text;
  return '';
}

const unsupported = () =>
  new AppError('unsupported', 'upload.unsupportedFormat', { message: 'Invalid or Unsupported File Format' });

export class AccountingValueFiles {
  constructor(private readonly db: Db) {}

  private async code(db: Executor, caller: Caller, number: string, idText: string) {
    const company = await companyInScope(db, caller, number);
    const id = idOf(idText);
    const code = id === undefined ? undefined : await findCode(db, company.id, id);
    if (!code)
      throw new AppError('notFound', 'accountingCode.notFound', { message: 'No such accountingCode' });
    if (code.kind !== 'list')
      throw new AppError('conflict', 'accountingCode.textHasNoValues', {
        message: 'A text code is typed freely: it keeps no values',
      });
    return { company, code };
  }

  /** Every value of the code in the upload's columns, by code; as CSV or .xlsx. */
  async download(caller: Caller, number: string, idText: string, format: 'csv' | 'xlsx') {
    const { company, code } = await this.code(this.db, caller, number, idText);
    const values = await allValues(this.db, code.id);
    const parents =
      code.dependsOnId === null ? new Map<number, string>() : await this.keysById(this.db, code.dependsOnId);
    const rows = values.map((v) => [
      v.value,
      v.description,
      v.parentId === null ? '' : (parents.get(v.parentId) ?? ''),
      v.active ? 'yes' : 'no',
    ]);
    const name = `accounting-${company.number}-${code.name.replace(/[^A-Za-z0-9_-]+/g, '_')}.${format}`;
    if (format === 'csv')
      return {
        fileName: name,
        mediaType: MEDIA_TYPES.csv,
        body: csvDocument(ACCOUNTING_VALUE_FILE_COLUMNS, rows),
      };
    const ExcelJS = await excel();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Values');
    sheet.addRow([...ACCOUNTING_VALUE_FILE_COLUMNS]);
    for (const row of rows) sheet.addRow(row.map((cell) => formulaSafe(cell)));
    return {
      fileName: name,
      mediaType: MEDIA_TYPES.xlsx,
      body: Buffer.from(await workbook.xlsx.writeBuffer()),
    };
  }

  /** The customer codes of a code's values by id (a dependent code's parents). */
  private async keysById(db: Executor, codeId: number): Promise<Map<number, string>> {
    const rows = await db
      .select({ id: accountingValues.id, value: accountingValues.value })
      .from(accountingValues)
      .where(eq(accountingValues.codeId, codeId));
    return new Map(rows.map((r) => [r.id, r.value]));
  }

  async upload(
    caller: Caller,
    number: string,
    idText: string,
    bytes: Uint8Array,
    ip: string,
  ): Promise<AccountingValueUploadResult> {
    // The code first, inside the caller's scope: nothing of the file is read for a code it may not see.
    await this.code(this.db, caller, number, idText);
    if (carriesVirusSignature(bytes)) throw virusFound();
    const table = await rowsOf(bytes);
    const [header = [], ...body] = table;
    const column = (name: string) => header.findIndex((h) => h.trim().toLowerCase() === name);
    const at = Object.fromEntries(ACCOUNTING_VALUE_FILE_COLUMNS.map((c) => [c, column(c)])) as Record<
      (typeof ACCOUNTING_VALUE_FILE_COLUMNS)[number],
      number
    >;
    if (at.value === -1)
      throw new AppError('invalid', 'upload.missingHeaders', {
        fieldErrors: { file: 'upload.missingHeaders' },
        detail: 'value',
      });
    const rows = body
      .map((cells, i) => ({ line: i + 2, cells }))
      .filter(({ cells }) => cells.some((c) => c.trim() !== ''));
    if (rows.length === 0)
      throw new AppError('invalid', 'upload.empty', { message: 'The file has no values' });
    if (rows.length > ACCOUNTING_LIMITS.valuesPerCode)
      throw new AppError('invalid', 'upload.tooManyRows', {
        message: `At most ${ACCOUNTING_LIMITS.valuesPerCode} values per code`,
      });

    return this.db.transaction(async (tx) => {
      const { company, code } = await this.code(tx, caller, number, idText);
      await lockCode(tx, code.id);
      const existing = new Map((await allValues(tx, code.id)).map((v) => [v.valueKey, v]));
      const parentKeys =
        code.dependsOnId === null
          ? undefined
          : new Map(
              [...(await this.keysById(tx, code.dependsOnId))].map(([id, value]) => [valueKeyOf(value), id]),
            );
      const problems: UploadRowProblem[] = [];
      const seen = new Map<string, number>();
      const creates: Omit<FileValue, 'id'>[] = [];
      const updates: FileValue[] = [];
      let unchanged = 0;
      const cell = (cells: string[], index: number) =>
        index === -1 ? undefined : unformula((cells[index] ?? '').trim());
      for (const { line, cells } of rows) {
        if (cells.some((c) => carriesVirusSignature(c))) throw virusFound();
        const problem = (field: string, key: string) => problems.push({ row: line, field, problem: key });
        const value = cell(cells, at.value) ?? '';
        const valueProblem = customerCodeProblem(value);
        if (valueProblem) {
          problem('value', valueProblem);
          continue;
        }
        const key = valueKeyOf(value);
        if (seen.has(key)) {
          problem('value', 'accountingValue.value.duplicate');
          continue;
        }
        seen.set(key, line);
        const before = existing.get(key);
        const description = cell(cells, at.description);
        if (description !== undefined) {
          const p = valueDescriptionProblem(description);
          if (p) problem('description', p);
        }
        const parentText = cell(cells, at.parent) ?? '';
        let parentId: number | null = before?.parentId ?? null;
        if (parentKeys === undefined) {
          if (parentText !== '') problem('parent', 'accountingValue.parent.notDependent');
        } else if (parentText === '') {
          if (!before) problem('parent', 'accountingValue.parent.required');
        } else {
          const found = parentKeys.get(valueKeyOf(parentText));
          if (found === undefined) problem('parent', 'accountingValue.parent.unknown');
          else parentId = found;
        }
        const activeText = (cell(cells, at.active) ?? '').toLowerCase();
        let active = before?.active ?? true;
        if (activeText !== '') {
          if (YES.has(activeText)) active = true;
          else if (NO.has(activeText)) active = false;
          else problem('active', 'accountingValue.active.invalid');
        }
        if (problems.some((p) => p.row === line)) continue;
        const next = {
          value: before?.value ?? value,
          valueKey: key,
          description: description ?? before?.description ?? '',
          parentId,
          active,
        };
        if (!before) creates.push(next);
        else if (
          before.description === next.description &&
          before.parentId === next.parentId &&
          before.active === next.active
        )
          unchanged += 1;
        else updates.push({ ...next, id: before.id });
      }
      if (existing.size + creates.length > ACCOUNTING_LIMITS.valuesPerCode)
        problems.push({ row: 0, field: 'file', problem: 'accountingValue.tooMany' });
      if (problems.length > 0) {
        problems.sort((a, b) => a.row - b.row);
        throw new AppError('unprocessable', 'upload.rows', {
          message: `${problems.length} problem(s) in the file: nothing was changed`,
          rows: problems.slice(0, 500),
        });
      }
      await writeValues(tx, code, creates, updates);
      await auditAdmin(tx, 'accountingValue.uploaded', {
        actor: caller,
        entity: 'accountingCode',
        entityId: String(code.id),
        changes: { values: { before: existing.size, after: existing.size + creates.length } },
        ip,
        detail: {
          company: company.number,
          code: code.name,
          created: creates.length,
          updated: updates.length,
          unchanged,
        },
      });
      return { created: creates.length, updated: updates.length, unchanged };
    });
  }
}

/** Writes the file's new values and changes in bulk (unnest arrays), and the code's count. */
async function writeValues(
  tx: Executor,
  code: CodeRow,
  creates: readonly Omit<FileValue, 'id'>[],
  updates: readonly FileValue[],
): Promise<void> {
  const json = (items: unknown[]) => JSON.stringify(items);
  for (let start = 0; start < creates.length; start += 20_000) {
    const chunk = creates.slice(start, start + 20_000);
    await tx.execute(sql`insert into ${accountingValues} (code_id, value, value_key, description, description_key, parent_id, active)
      select ${code.id}, v.value, v.value_key, v.description, v.description_key, v.parent_id, v.active
      from jsonb_to_recordset(${json(
        chunk.map((c) => ({
          value: c.value,
          value_key: c.valueKey,
          description: c.description,
          description_key: valueKeyOf(c.description),
          parent_id: c.parentId,
          active: c.active,
        })),
      )}::jsonb) as v(value text, value_key text, description text, description_key text, parent_id int, active boolean)`);
  }
  for (let start = 0; start < updates.length; start += 20_000) {
    const chunk = updates.slice(start, start + 20_000);
    await tx.execute(sql`update ${accountingValues} a set description = v.description, description_key = v.description_key,
        parent_id = v.parent_id, active = v.active, updated_at = now()
      from jsonb_to_recordset(${json(
        chunk.map((u) => ({
          id: u.id,
          description: u.description,
          description_key: valueKeyOf(u.description),
          parent_id: u.parentId,
          active: u.active,
        })),
      )}::jsonb) as v(id int, description text, description_key text, parent_id int, active boolean)
      where a.id = v.id`);
  }
  if (creates.length > 0) await countValues(tx, code.id, creates.length);
}
