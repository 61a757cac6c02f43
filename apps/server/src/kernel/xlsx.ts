import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

/**
 * The first worksheet of an Office Open XML workbook (.xlsx) as rows of text, and the reverse: a
 * one-sheet workbook from rows of text. Only what an upload needs — cell values, not styles or
 * formulas (a formula cell gives its cached value) — so no general-purpose spreadsheet library (and its
 * dependency tree) sits on the upload path. Guarded against archives that expand without limit.
 */

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The expanded size of the parts read (the sheet, shared strings, workbook) may not exceed this. */
const MAX_EXPANDED_BYTES = 32 * 1024 * 1024;
const MAX_ROWS = 20_000;
const MAX_COLUMNS = 64;

export class XlsxError extends Error {}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_m, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? '';
  });
}

function encodeXml(text: string): string {
  // Characters XML 1.0 cannot hold are dropped rather than written as an invalid document.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[<>&"]/g, (c) => {
    return c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : '&quot;';
  });
}

/** The text of every `<t>` inside a fragment (a shared string may be split into rich-text runs). */
function textOf(fragment: string): string {
  const withoutPhonetic = fragment.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '');
  let out = '';
  for (const m of withoutPhonetic.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g)) {
    out += decodeXml(m[1] ?? '');
  }
  return out;
}

/** Column index (0-based) of a cell reference such as `AB12`. */
function columnOf(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return n - 1;
}

const attribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Is this the start of a ZIP archive (every .xlsx is one)? */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

/** Reads the first worksheet's cells as trimmed-free text rows (empty cells are ''). */
export function readFirstSheet(bytes: Uint8Array): string[][] {
  if (!looksLikeZip(bytes)) throw new XlsxError('not an xlsx (ZIP) file');
  let expanded = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        const wanted =
          file.name === 'xl/workbook.xml' ||
          file.name === 'xl/_rels/workbook.xml.rels' ||
          file.name === 'xl/sharedStrings.xml' ||
          /^xl\/worksheets\/[^/]+\.xml$/.test(file.name);
        if (!wanted) return false;
        expanded += file.originalSize;
        if (expanded > MAX_EXPANDED_BYTES) throw new XlsxError('the workbook expands beyond its limit');
        return true;
      },
    });
  } catch (error) {
    if (error instanceof XlsxError) throw error;
    throw new XlsxError('not a readable xlsx file');
  }
  for (const data of Object.values(files)) {
    if (data.length > MAX_EXPANDED_BYTES) throw new XlsxError('the workbook expands beyond its limit');
  }
  const workbook = files['xl/workbook.xml'];
  if (!workbook) throw new XlsxError('no workbook part');
  // The first <sheet> of the workbook, through its relationship to the part that holds it.
  const firstSheet = /<sheet\b[^>]*>/.exec(strFromU8(workbook))?.[0];
  const relId = firstSheet ? attribute(firstSheet, 'r:id') : undefined;
  let sheetPath = 'xl/worksheets/sheet1.xml';
  const rels = files['xl/_rels/workbook.xml.rels'];
  if (relId && rels) {
    for (const m of strFromU8(rels).matchAll(/<Relationship\b[^>]*>/g)) {
      if (attribute(m[0], 'Id') === relId) {
        const target = attribute(m[0], 'Target') ?? '';
        sheetPath = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
      }
    }
  }
  const sheet = files[sheetPath];
  if (!sheet) throw new XlsxError('no worksheet');
  const shared: string[] = [];
  const sharedPart = files['xl/sharedStrings.xml'];
  if (sharedPart) {
    for (const m of strFromU8(sharedPart).matchAll(/<si>([\s\S]*?)<\/si>|<si\/>/g))
      shared.push(textOf(m[1] ?? ''));
  }
  const rows: string[][] = [];
  for (const rowMatch of strFromU8(sheet).matchAll(/<row\b([^>]*)>([\s\S]*?)<\/row>|<row\b([^>]*)\/>/g)) {
    const index = Number(attribute(rowMatch[1] ?? rowMatch[3] ?? '', 'r') ?? rows.length + 1) - 1;
    if (!Number.isInteger(index) || index < 0 || index >= MAX_ROWS) throw new XlsxError('too many rows');
    const row: string[] = [];
    for (const cell of (rowMatch[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = cell[1] ?? '';
      const ref = attribute(attrs, 'r');
      const column = ref ? columnOf(ref) : row.length;
      if (column < 0 || column >= MAX_COLUMNS) continue;
      const type = attribute(attrs, 't');
      const body = cell[2] ?? '';
      const raw = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      let value = '';
      if (type === 's') value = shared[Number(raw)] ?? '';
      else if (type === 'inlineStr') value = textOf(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? '');
      else if (type === 'b') value = raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : '';
      else value = decodeXml(raw ?? '');
      while (row.length < column) row.push('');
      row[column] = value;
    }
    while (rows.length < index) rows.push([]);
    rows[index] = row;
  }
  return rows;
}

/** A one-sheet workbook of inline-string cells (what the upload reads back). */
export function writeSheet(rows: readonly (readonly string[])[], sheetName = 'Sheet1'): Uint8Array {
  const column = (i: number): string => {
    let s = '';
    for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    return s;
  };
  const sheetRows = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row
          .map(
            (value, c) =>
              `<c r="${column(c)}${r + 1}" t="inlineStr"><is><t xml:space="preserve">${encodeXml(value)}</t></is></c>`,
          )
          .join('')}</row>`,
    )
    .join('');
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const ns = 'http://schemas.openxmlformats.org';
  return zipSync({
    '[Content_Types].xml': strToU8(
      `${xml}<Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `${xml}<Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `${xml}<workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets><sheet name="${encodeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `${xml}<Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(
      `${xml}<worksheet xmlns="${ns}/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`,
    ),
  });
}
