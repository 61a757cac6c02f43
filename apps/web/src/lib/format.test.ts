import { describe, expect, it } from 'vitest';
import { makeFormats, minorUnitDigits } from './format.ts';

describe('Intl formats', () => {
  it('money from integer minor units, in the currency’s own decimals', () => {
    expect(minorUnitDigits('USD')).toBe(2);
    expect(minorUnitDigits('JPY')).toBe(0);
    expect(minorUnitDigits('KWD')).toBe(3);
    expect(makeFormats('en-US').money(123_456, 'USD')).toBe('$1,234.56');
    expect(makeFormats('en-US').money(-5, 'USD')).toBe('-$0.05');
    expect(makeFormats('de').money(123_456, 'EUR')).toBe('1.234,56\u00a0€');
    expect(makeFormats('ja').money(1234, 'JPY')).toBe('￥1,234');
    expect(makeFormats('en-US').money(1_234_567, 'KWD')).toBe('KWD\u00a01,234.567');
    expect(() => makeFormats('en-US').money(12.5, 'USD')).toThrow(RangeError);
  });

  it('a calendar date stays on its day in every time zone; moments in the user’s language', () => {
    const en = makeFormats('en-US');
    expect(en.date('2026-10-24')).toBe('Oct 24, 2026');
    expect(makeFormats('de').date('2026-10-24')).toBe('24.10.2026');
    expect(en.date('not a date')).toBe('not a date');
    expect(en.number(1234567)).toBe('1,234,567');
    expect(makeFormats('pl').number(1234567)).toBe('1\u00a0234\u00a0567');
    expect(en.dateTime('2026-11-22T10:00:00.000Z')).toMatch(/^Nov 22, 2026, \d{1,2}:00:00\s[AP]M$/);
  });
});
