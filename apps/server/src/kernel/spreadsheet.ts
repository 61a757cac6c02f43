import { stringify } from 'csv-stringify/sync';

/**
 * Text a spreadsheet will open (CSV and .xlsx exports): a cell that starts like a formula (`=`, `+`, `-`,
 * `@`, tab, carriage return) gets a leading apostrophe, so a merchant name or a description from a file
 * can never run as a formula on an administrator's machine (OWASP "CSV injection"). For text we did not
 * write ourselves; amounts we format are left alone.
 */
export function formulaSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A cell of a list export: text (made formula-safe), a number, or nothing. */
export type CsvCell = string | number | null | undefined;

/**
 * A list as a CSV document a spreadsheet opens as it should (issue 20 item 3: a list exports what it
 * shows): a header row of `columns`, one row per record, CRLF, a UTF-8 byte-order mark (Excel reads
 * the accents right), every text cell formula-safe. Written by csv-stringify (quoting, embedded
 * quotes and line breaks).
 */
export function csvDocument(columns: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return stringify(
    rows.map((row) => row.map((cell) => (typeof cell === 'string' ? formulaSafe(cell) : (cell ?? '')))),
    { header: true, columns: [...columns], record_delimiter: '\r\n', bom: true },
  );
}

/** A list export's file name: the list and today's date (`companies-2026-11-25.csv`). */
export const csvFilename = (list: string) => `${list}-${new Date().toISOString().slice(0, 10)}.csv`;
