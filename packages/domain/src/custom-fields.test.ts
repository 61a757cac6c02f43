import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CUSTOM_DATE_FORMATS,
  type CustomFieldDefinition,
  checkCustomValue,
  customFieldDefinitionProblems,
  formatCustomDate,
  parseCustomDate,
} from './custom-fields.ts';

const def = (over: Partial<CustomFieldDefinition> = {}): CustomFieldDefinition => ({
  label: 'Purpose',
  type: 'text',
  length: 40,
  decimals: 0,
  dateFormat: 'YYYY-MM-DD',
  required: false,
  values: [],
  ...over,
});

describe('custom data field definitions', () => {
  it('takes a label of up to 25, text 1–80, numbers 1–255 digits with 0–4 decimals, lists of distinct customer codes', () => {
    expect(customFieldDefinitionProblems(def())).toEqual({});
    expect(customFieldDefinitionProblems(def({ label: '' }))).toEqual({
      label: 'customField.label.required',
    });
    expect(customFieldDefinitionProblems(def({ label: 'x'.repeat(26) }))).toEqual({
      label: 'customField.label.tooLong',
    });
    expect(customFieldDefinitionProblems(def({ length: 81 }))).toEqual({
      length: 'customField.length.textRange',
    });
    expect(customFieldDefinitionProblems(def({ type: 'number', length: 255, decimals: 4 }))).toEqual({});
    expect(customFieldDefinitionProblems(def({ type: 'number', length: 256 }))).toEqual({
      length: 'customField.length.numberRange',
    });
    expect(customFieldDefinitionProblems(def({ type: 'number', length: 10, decimals: 5 }))).toEqual({
      decimals: 'customField.decimals.range',
    });
    expect(customFieldDefinitionProblems(def({ type: 'number', length: 2, decimals: 2 }))).toEqual({
      decimals: 'customField.decimals.length',
    });
    expect(customFieldDefinitionProblems(def({ type: 'list', values: [] }))).toEqual({
      values: 'customField.values.required',
    });
    expect(customFieldDefinitionProblems(def({ type: 'list', values: ['A', 'a'] }))).toEqual({
      values: 'customField.values.duplicate',
    });
    expect(customFieldDefinitionProblems(def({ type: 'list', values: ['000'] }))).toEqual({
      values: 'customField.values.format',
    });
    expect(customFieldDefinitionProblems(def({ type: 'list', values: ['MEET', 'TRAIN'] }))).toEqual({});
  });
});

describe('custom data field values', () => {
  it('checks text, numbers (exactly, never through a float), dates in the field’s format and list values', () => {
    expect(checkCustomValue(def({ length: 5 }), ' hello ')).toEqual({ value: 'hello' });
    expect(checkCustomValue(def({ length: 4 }), 'hello')).toEqual({ problem: 'customField.value.tooLong' });
    expect(checkCustomValue(def(), '4111 1111 1111 1111')).toEqual({
      problem: 'customField.value.invalidCharacters',
    });
    expect(checkCustomValue(def({ required: true }), ' ')).toEqual({ problem: 'customField.value.required' });
    expect(checkCustomValue(def(), '')).toEqual({ value: null });
    const money = def({ type: 'number', length: 8, decimals: 2 });
    expect(checkCustomValue(money, '12.5')).toEqual({ value: '12.50' });
    expect(checkCustomValue(money, '0012')).toEqual({ value: '12.00' });
    expect(checkCustomValue(money, '-0.10')).toEqual({ value: '-0.10' });
    expect(checkCustomValue(money, '-0')).toEqual({ value: '0.00' });
    expect(checkCustomValue(money, '1.234')).toEqual({ problem: 'customField.value.decimals' });
    expect(checkCustomValue(money, '1234567')).toEqual({ problem: 'customField.value.tooLong' });
    expect(checkCustomValue(money, '1e3')).toEqual({ problem: 'customField.value.number' });
    expect(checkCustomValue(def({ type: 'number', length: 255, decimals: 0 }), '9'.repeat(255))).toEqual({
      value: '9'.repeat(255),
    });
    const date = def({ type: 'date', dateFormat: 'DD.MM.YYYY' });
    expect(checkCustomValue(date, '29.02.2028')).toEqual({ value: '2028-02-29' });
    expect(checkCustomValue(date, '29.02.2027')).toEqual({ problem: 'customField.value.date' });
    expect(checkCustomValue(date, '2027-02-01')).toEqual({ problem: 'customField.value.date' });
    const list = def({ type: 'list', values: ['MEET', 'Train'] });
    expect(checkCustomValue(list, 'train')).toEqual({ value: 'Train' });
    expect(checkCustomValue(list, 'BUS')).toEqual({ problem: 'customField.value.notInList' });
  });

  it('writes and reads back every real date in every format (property)', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2199-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(...CUSTOM_DATE_FORMATS),
        (date, format) => {
          const iso = date.toISOString().slice(0, 10);
          expect(parseCustomDate(formatCustomDate(iso, format), format)).toBe(iso);
        },
      ),
    );
  });

  it('keeps a number’s value exactly: the stored text parses back to itself (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 4 }),
        (minor, decimals) => {
          const field = def({ type: 'number', length: 30, decimals });
          const negative = minor < 0n;
          const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, '0');
          const text = `${negative ? '-' : ''}${decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`}`;
          const checked = checkCustomValue(field, text);
          expect('value' in checked).toBe(true);
          if ('value' in checked && checked.value !== null)
            expect(checkCustomValue(field, checked.value)).toEqual(checked);
        },
      ),
    );
  });
});
