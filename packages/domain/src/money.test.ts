import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MONEY_MAX_WHOLE_DIGITS } from './decimal.ts';
import { currencyExponent, formatMoney, parseMinorUnits, toMajorUnits } from './money.ts';

/** Currencies of every exponent the table has: 0, 2, 3 and 4 decimals. */
const CURRENCIES = ['JPY', 'KRW', 'EUR', 'USD', 'GBP', 'BHD', 'KWD', 'TND', 'CLF'] as const;

describe('currencyExponent', () => {
  it('reads the decimals from the ISO 4217 table', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('EUR')).toBe(2);
    expect(currencyExponent('BHD')).toBe(3);
    expect(currencyExponent('CLF')).toBe(4);
  });
  it('knows no lower-case, invented or unit-less code', () => {
    for (const code of ['eur', 'EURO', 'ABC', 'XAU', 'XXX', '', 'E1R'])
      expect(currencyExponent(code)).toBeUndefined();
  });
});

describe('parseMinorUnits and toMajorUnits', () => {
  it('read amounts exactly, never through a float', () => {
    expect(parseMinorUnits('0.1', 'EUR')).toEqual({ minor: 10n });
    expect(parseMinorUnits('0.3', 'EUR')).toEqual({ minor: 30n });
    expect(parseMinorUnits('-12.345', 'BHD')).toEqual({ minor: -12345n });
    expect(parseMinorUnits('1200', 'JPY')).toEqual({ minor: 1200n });
    expect(parseMinorUnits('1200.00', 'JPY')).toEqual({ minor: 1200n });
    expect(parseMinorUnits('9999999999999.99', 'USD')).toEqual({ minor: 999999999999999n });
    expect(parseMinorUnits('5.', 'EUR')).toEqual({ minor: 500n });
  });
  it('name the problem of what is not an amount of the currency', () => {
    expect(parseMinorUnits('12.5', 'JPY')).toEqual({ problem: 'money.amount.decimals' });
    expect(parseMinorUnits('1.001', 'EUR')).toEqual({ problem: 'money.amount.decimals' });
    for (const text of ['', '-', '1,50', '1e3', '0x10', '+1', '1 000', 'NaN', '.5', '--1', '١٢'])
      expect(parseMinorUnits(text, 'EUR')).toEqual({ problem: 'money.amount.format' });
    expect(parseMinorUnits('1'.repeat(MONEY_MAX_WHOLE_DIGITS + 1), 'EUR')).toEqual({
      problem: 'money.amount.tooLarge',
    });
    expect(parseMinorUnits('1', 'XYZ')).toEqual({ problem: 'money.currency.unknown' });
  });
  it('round-trip every amount of every currency (property)', () => {
    const maxMinor = 10n ** BigInt(MONEY_MAX_WHOLE_DIGITS) - 1n;
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        fc.bigInt({ min: -maxMinor, max: maxMinor }),
        (currency, minor) => {
          const text = toMajorUnits(minor, currency);
          const exponent = currencyExponent(currency) ?? 0;
          expect(text).toMatch(exponent === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${exponent}}$`));
          expect(parseMinorUnits(text, currency)).toEqual({ minor });
        },
      ),
    );
  });
});

describe('formatMoney', () => {
  it('writes the currency decimals in the user locale', () => {
    expect(formatMoney(123450n, 'EUR', 'de')).toBe('1.234,50\u00a0€');
    expect(formatMoney(123450n, 'USD', 'en_US')).toBe('$1,234.50');
    expect(formatMoney(1200n, 'JPY', 'ja')).toBe('￥1,200');
    expect(formatMoney(-12345n, 'BHD', 'en_GB')).toBe('-BHD\u00a012.345');
  });
  it('keeps every digit of amounts past a double', () => {
    expect(formatMoney(900719925474099123n, 'JPY', 'en_US')).toBe('¥900,719,925,474,099,123');
  });
});
