import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Cobrand, cobrandSchema } from '@cardportal/domain';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { IMAGE_TYPES, saveCobrands } from './repository.ts';

/** Largest logo accepted (seed 001 §5: header graphic 1 MB). */
const MAX_IMAGE_BYTES = 1024 * 1024;

/** The 1-based line on which each top-level element of a JSON array starts. */
function elementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let line = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 1 && c === '{') lines.push(line);
      depth++;
    } else if (c === '}' || c === ']') depth--;
  }
  return lines;
}

/**
 * Reads a co-brand import file: a JSON array of records (spec §3 fields, theme, languages, footer
 * links), each optionally naming its `logo` and `footerLogo` image files relative to the import file.
 * Everything is checked before anything is written; then all records and images are saved in one
 * transaction. An error names the record, its line and the field.
 */
export function readCobrandFile(file: string): {
  records: Cobrand[];
  assets: { path: string; bytes: Uint8Array }[];
} {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new AppError('invalid', 'cobrand.import', {
      message: `${file}: cannot be read (${(error as Error).message})`,
    });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid', 'cobrand.import', {
      message: `${file}: not valid JSON (${(error as Error).message})`,
    });
  }
  const list = Array.isArray(raw) ? raw : [raw];
  const lines = Array.isArray(raw) ? elementLines(text) : [1];
  const records: Cobrand[] = [];
  const assets: { path: string; bytes: Uint8Array }[] = [];
  const names = new Set<string>();
  const abbreviations = new Set<string>();
  for (const [i, item] of list.entries()) {
    const where = `${file}: record ${i + 1} (line ${lines[i] ?? '?'})`;
    const { logo, footerLogo, ...fields } = (item && typeof item === 'object' ? item : {}) as Record<
      string,
      unknown
    >;
    const parsed = cobrandSchema.safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError('invalid', 'cobrand.import', {
        message: `${where}, field ${issue?.path.join('.') || '(record)'}: ${issue?.message}`,
      });
    }
    const record = parsed.data;
    if (names.has(record.name))
      throw new AppError('invalid', 'cobrand.import', {
        message: `${where}, field name: ${record.name} appears twice`,
      });
    if (abbreviations.has(record.abbreviation)) {
      throw new AppError('invalid', 'cobrand.import', {
        message: `${where}, field abbreviation: ${record.abbreviation} appears twice`,
      });
    }
    names.add(record.name);
    abbreviations.add(record.abbreviation);
    for (const [field, value, folder, base] of [
      ['logo', logo, 'logos', record.name],
      ['footerLogo', footerLogo, 'footers', record.abbreviation],
    ] as const) {
      if (value === undefined) continue;
      if (typeof value !== 'string')
        throw new AppError('invalid', 'cobrand.import', {
          message: `${where}, field ${field}: must be a file path`,
        });
      const ext = path.extname(value).slice(1).toLowerCase();
      if (!IMAGE_TYPES[ext])
        throw new AppError('invalid', 'cobrand.import', {
          message: `${where}, field ${field}: must be a .png, .jpg or .gif file`,
        });
      const imagePath = path.resolve(path.dirname(file), value);
      if (!existsSync(imagePath))
        throw new AppError('invalid', 'cobrand.import', {
          message: `${where}, field ${field}: ${value} does not exist`,
        });
      if (statSync(imagePath).size > MAX_IMAGE_BYTES)
        throw new AppError('invalid', 'cobrand.import', {
          message: `${where}, field ${field}: larger than 1 MB`,
        });
      assets.push({ path: `${folder}/${base}.${ext}`, bytes: readFileSync(imagePath) });
    }
    records.push(record);
  }
  return { records, assets };
}

export async function importCobrandFile(db: Db, file: string): Promise<number> {
  const { records, assets } = readCobrandFile(file);
  await saveCobrands(db, records, assets);
  return records.length;
}
