import { customerCodeProblem } from './accounting.ts';
import { containsCardNumber } from './card-numbers.ts';

/**
 * Custom data fields (issue 16 item 4; seed 001 §3 "Custom data field: label, length, type, list values,
 * date format", §5 "Custom data field length 1-80 (another message 1-255, numeric); label at most 25
 * characters; decimal digits 0 to 4", §9 "Custom lists: 3", "Custom list field: 5000 customer codes"):
 * a company's own fields captured on its transactions and carried into the export. Every problem is a
 * message key (`validation.{key}`).
 */

export const CUSTOM_FIELD_LIMITS = {
  fieldsPerCompany: 30,
  labelMaxLength: 25,
  /** Text: 1–80 characters; number: 1–255 digits (seed 001 §5's two messages). */
  textLength: { min: 1, max: 80 },
  numberLength: { min: 1, max: 255 },
  decimalDigits: { min: 0, max: 4 },
  /** Fields of type list (seed 001 §9 "Custom lists: 3"), each with at most 5,000 values. */
  listFieldsPerCompany: 3,
  listValuesMax: 5_000,
} as const;

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'list'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** The date formats a date field is entered and exported in. */
export const CUSTOM_DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] as const;
export type CustomDateFormat = (typeof CUSTOM_DATE_FORMATS)[number];

export interface CustomFieldDefinition {
  label: string;
  type: CustomFieldType;
  /** Text: the longest text; number: the most digits (before and after the point). */
  length: number;
  decimals: number;
  dateFormat: CustomDateFormat;
  required: boolean;
  /** A list field's values (customer codes), else empty. */
  values: readonly string[];
}

const FORBIDDEN = /[<>\p{Cc}]/u;

/** The problems of a field's definition, by field of the form. */
export function customFieldDefinitionProblems(def: CustomFieldDefinition): Record<string, string> {
  const problems: Record<string, string> = {};
  const label = def.label.trim();
  if (label === '') problems.label = 'customField.label.required';
  else if ([...label].length > CUSTOM_FIELD_LIMITS.labelMaxLength)
    problems.label = 'customField.label.tooLong';
  else if (FORBIDDEN.test(label)) problems.label = 'customField.label.invalidCharacters';
  const range =
    def.type === 'number'
      ? CUSTOM_FIELD_LIMITS.numberLength
      : def.type === 'text'
        ? CUSTOM_FIELD_LIMITS.textLength
        : undefined;
  if (range && (!Number.isInteger(def.length) || def.length < range.min || def.length > range.max))
    problems.length =
      def.type === 'number' ? 'customField.length.numberRange' : 'customField.length.textRange';
  if (
    def.type === 'number' &&
    (!Number.isInteger(def.decimals) ||
      def.decimals < CUSTOM_FIELD_LIMITS.decimalDigits.min ||
      def.decimals > CUSTOM_FIELD_LIMITS.decimalDigits.max)
  )
    problems.decimals = 'customField.decimals.range';
  else if (def.type === 'number' && def.decimals >= def.length && !problems.length)
    problems.decimals = 'customField.decimals.length';
  if (def.type === 'list') {
    const values = def.values.map((v) => v.trim()).filter((v) => v !== '');
    if (values.length === 0) problems.values = 'customField.values.required';
    else if (values.length > CUSTOM_FIELD_LIMITS.listValuesMax)
      problems.values = 'customField.values.tooMany';
    else if (new Set(values.map((v) => v.toUpperCase())).size !== values.length)
      problems.values = 'customField.values.duplicate';
    else if (values.some((v) => customerCodeProblem(v) !== undefined))
      problems.values = 'customField.values.format';
  }
  return problems;
}

/** A date typed in `format`, as ISO `YYYY-MM-DD`, or undefined when it is not a real date so written. */
export function parseCustomDate(text: string, format: CustomDateFormat): string | undefined {
  const patterns: Record<CustomDateFormat, RegExp> = {
    'YYYY-MM-DD': /^(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})$/,
    'DD/MM/YYYY': /^(?<d>\d{2})\/(?<m>\d{2})\/(?<y>\d{4})$/,
    'MM/DD/YYYY': /^(?<m>\d{2})\/(?<d>\d{2})\/(?<y>\d{4})$/,
    'DD.MM.YYYY': /^(?<d>\d{2})\.(?<m>\d{2})\.(?<y>\d{4})$/,
  };
  const groups = patterns[format].exec(text.trim())?.groups;
  if (!groups) return undefined;
  const [y, m, d] = [Number(groups.y), Number(groups.m), Number(groups.d)];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return `${groups.y}-${groups.m}-${groups.d}`;
}

/** An ISO date written in `format` (the export and the form show it so). */
export function formatCustomDate(iso: string, format: CustomDateFormat): string {
  const [y = '', m = '', d = ''] = iso.split('-');
  return format === 'YYYY-MM-DD'
    ? iso
    : format === 'DD/MM/YYYY'
      ? `${d}/${m}/${y}`
      : format === 'MM/DD/YYYY'
        ? `${m}/${d}/${y}`
        : `${d}.${m}.${y}`;
}

/**
 * A value entered for a field: its stored form (text as typed; a number as its exact decimal with the
 * field's decimals; a date as ISO; a list value as the list's own spelling), or the problem. Empty: the
 * field's value is cleared (refused when required).
 */
export function checkCustomValue(
  def: Pick<CustomFieldDefinition, 'type' | 'length' | 'decimals' | 'dateFormat' | 'required' | 'values'>,
  input: string,
): { value: string | null } | { problem: string } {
  const text = input.trim();
  if (text === '') return def.required ? { problem: 'customField.value.required' } : { value: null };
  switch (def.type) {
    case 'text':
      if ([...text].length > def.length) return { problem: 'customField.value.tooLong' };
      if (FORBIDDEN.test(text) || containsCardNumber(text))
        return { problem: 'customField.value.invalidCharacters' };
      return { value: text };
    case 'number': {
      // Exact decimal text, never through a float: digits, at most the field's decimals, at most its length.
      const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
      if (!match) return { problem: 'customField.value.number' };
      const [, sign = '', rawWhole = '', rawFraction = ''] = match;
      const fraction = rawFraction.replace(/0+$/, '');
      if (fraction.length > def.decimals) return { problem: 'customField.value.decimals' };
      const whole = rawWhole.replace(/^0+(?=\d)/, '');
      if (whole.length + def.decimals > def.length) return { problem: 'customField.value.tooLong' };
      const zero = /^0+$/.test(whole) && fraction === '';
      const digits = def.decimals === 0 ? whole : `${whole}.${fraction.padEnd(def.decimals, '0')}`;
      return { value: `${sign === '-' && !zero ? '-' : ''}${digits}` };
    }
    case 'date': {
      const iso = parseCustomDate(text, def.dateFormat);
      return iso ? { value: iso } : { problem: 'customField.value.date' };
    }
    case 'list': {
      const found = def.values.find((v) => v.toUpperCase() === text.toUpperCase());
      return found ? { value: found } : { problem: 'customField.value.notInList' };
    }
  }
}
