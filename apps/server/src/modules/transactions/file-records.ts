import {
  OPTIONAL_TRANSACTION_COLUMNS,
  TRANSACTION_FILE_COLUMNS,
  type TransactionFileColumn,
} from '@cardportal/domain';
import { CsvError, parse } from 'csv-parse';
import { SaxesParser } from 'saxes';

/**
 * Reading a transaction file (DESIGN §7 "Transactions"): CSV with a header row, or XML with one
 * `Transaction` element per record whose child elements carry the same names as the CSV columns. Both
 * are streamed — a record at a time, whatever the file's size — into `{ line, fields }`, and neither
 * reader judges a value: that is packages/domain checkTransactionRecord's work. What makes the whole
 * file unreadable (no header, a broken quote, a broken tag, a DOCTYPE) throws FileRefused.
 */

export type TransactionFileFormat = 'csv' | 'xml';

export interface FileRecord {
  /** The file's line where the record starts (1-based; the CSV header is line 1). */
  line: number;
  fields: Partial<Record<TransactionFileColumn, string>>;
  /** Set when the record itself cannot be read as one (a CSV row with the wrong number of fields). */
  problem?: string;
}

export interface FileHeader {
  /** Columns (CSV) or elements (XML) the file carries that are not ours: ignored, named in the report. */
  ignored: string[];
}

/** The whole file is refused: `problem` is a message key (`validation.{problem}`), `line` where. */
export class FileRefused extends Error {
  constructor(
    readonly problem: string,
    readonly line?: number,
  ) {
    super(problem);
  }
}

const KNOWN = new Set<string>(TRANSACTION_FILE_COLUMNS);
/** A field longer than this is no transaction's (64 KiB): csv-parse stops there instead of buffering. */
const MAX_RECORD_BYTES = 64 * 1024;

/** The format a file's name or first bytes say: `.csv`, `.xml`, or XML when it starts with `<`. */
export function formatOf(fileName: string, head: Buffer | string): TransactionFileFormat {
  const name = fileName.toLowerCase();
  if (name.endsWith('.xml')) return 'xml';
  if (name.endsWith('.csv')) return 'csv';
  const text = typeof head === 'string' ? head : head.subarray(0, 64).toString('utf8');
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('<')
    ? 'xml'
    : 'csv';
}

/**
 * The records of a CSV file. The header names the columns (any order, case and surrounding spaces
 * ignored); every required column must be there, or the file is refused (`transactions.file.header`).
 */
export async function* csvRecords(
  source: AsyncIterable<Buffer | string>,
  header: FileHeader,
): AsyncGenerator<FileRecord> {
  type Row = { line: number; record: string[] };
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_BYTES,
    on_record: (record: string[], context) => ({ line: context.lines, record }) as unknown as string[],
  });
  const feeding = (async () => {
    try {
      for await (const chunk of source)
        if (!parser.write(chunk)) await new Promise((r) => parser.once('drain', r));
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let columns: (TransactionFileColumn | undefined)[] | undefined;
  try {
    for await (const { line, record } of parser as AsyncIterable<Row>) {
      if (!columns) {
        const names = record.map((name) => name.trim().toLowerCase());
        const missing = TRANSACTION_FILE_COLUMNS.filter(
          (c) => !OPTIONAL_TRANSACTION_COLUMNS.includes(c) && !names.includes(c),
        );
        if (missing.length > 0 || new Set(names).size !== names.length)
          throw new FileRefused('upload.missingHeaders', line);
        columns = names.map((name) => (KNOWN.has(name) ? (name as TransactionFileColumn) : undefined));
        header.ignored = names.filter((name) => !KNOWN.has(name));
        continue;
      }
      const fields: FileRecord['fields'] = {};
      for (let i = 0; i < columns.length; i++) {
        const column = columns[i];
        if (column) fields[column] = record[i] ?? '';
      }
      yield record.length === columns.length
        ? { line, fields }
        : { line, fields, problem: 'transactions.row.columns' };
    }
  } catch (error) {
    if (error instanceof CsvError)
      throw new FileRefused(
        'upload.unsupportedFormat',
        typeof error.lines === 'number' ? error.lines : undefined,
      );
    throw error;
  } finally {
    parser.destroy();
    await feeding;
  }
  if (!columns) throw new FileRefused('upload.missingHeaders', 1);
}

/**
 * The records of an XML file: every `Transaction` element (at any depth, namespaces ignored), its child
 * elements' text as the fields. A DOCTYPE is refused outright (no entity of any kind is expanded), as is
 * anything that is not well-formed.
 */
export async function* xmlRecords(
  source: AsyncIterable<Buffer | string>,
  header: FileHeader,
): AsyncGenerator<FileRecord> {
  const parser = new SaxesParser({ position: true });
  const ready: FileRecord[] = [];
  const ignored = new Set<string>();
  let current: FileRecord | undefined;
  let field: string | undefined;
  let value = '';
  let sawRoot = false;
  let failure: FileRefused | undefined;
  const localName = (name: string) => name.slice(name.indexOf(':') + 1);
  parser.on('doctype', () => {
    failure ??= new FileRefused('upload.unsupportedFormat', parser.line);
  });
  parser.on('opentag', (tag) => {
    sawRoot = true;
    const name = localName(tag.name);
    if (!current) {
      if (name === 'Transaction') current = { line: parser.line, fields: {} };
      return;
    }
    if (field !== undefined) {
      // An element inside a field: the record is not one we can read.
      current.problem = 'transactions.row.structure';
      return;
    }
    field = name;
    value = '';
  });
  parser.on('text', (text) => {
    if (field !== undefined) value += text;
  });
  parser.on('cdata', (text) => {
    if (field !== undefined) value += text;
  });
  parser.on('closetag', (tag) => {
    const name = localName(tag.name);
    if (!current) return;
    if (field !== undefined && name === field) {
      if (KNOWN.has(field)) current.fields[field as TransactionFileColumn] = value;
      else ignored.add(field);
      field = undefined;
      return;
    }
    if (field === undefined && name === 'Transaction') {
      ready.push(current);
      current = undefined;
    }
  });
  parser.on('error', (error) => {
    failure ??= new FileRefused('upload.unsupportedFormat', parser.line);
    void error;
  });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const drain = function* () {
    while (ready.length > 0) yield ready.shift() as FileRecord;
  };
  try {
    for await (const chunk of source) {
      parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      if (failure) throw failure;
      header.ignored = [...ignored];
      yield* drain();
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    if (error instanceof FileRefused) throw error;
    if (error instanceof TypeError) throw new FileRefused('upload.unsupportedFormat', parser.line);
    throw new FileRefused('upload.unsupportedFormat', parser.line);
  }
  if (failure) throw failure;
  if (!sawRoot) throw new FileRefused('upload.unsupportedFormat', 1);
  header.ignored = [...ignored];
  yield* drain();
}
