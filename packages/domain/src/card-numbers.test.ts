import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cardNumberParts,
  checkCardAlias,
  checkCardNumber,
  maskCardParts,
  parseCardBins,
} from './card-numbers.ts';
import { isLuhnValid } from './user-id.ts';

/** The Luhn check digit that completes `body`. */
const withCheckDigit = (body: string) => {
  for (let d = 0; d <= 9; d++) if (isLuhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
};
const cardNumber = fc
  .integer({ min: 12, max: 19 })
  .chain((length) => fc.stringMatching(new RegExp(`^[1-9][0-9]{${length - 2}}$`)))
  .map(withCheckDigit);

describe('checkCardNumber', () => {
  it('accepts every Luhn-valid number of 12 to 19 digits, grouped or not', () => {
    fc.assert(
      fc.property(cardNumber, (number) => {
        expect(checkCardNumber(number)).toBeUndefined();
        expect(checkCardNumber(number.replace(/(\d{4})/g, '$1 ').trim())).toBeUndefined();
      }),
    );
  });

  it('refuses any single changed digit (the check digit catches it)', () => {
    fc.assert(
      fc.property(cardNumber, fc.nat(), fc.integer({ min: 1, max: 9 }), (number, at, add) => {
        const i = at % number.length;
        const changed = `${number.slice(0, i)}${(Number(number[i]) + add) % 10}${number.slice(i + 1)}`;
        expect(checkCardNumber(changed)).toBe('account.number.luhn');
      }),
    );
  });

  it('names the problem: required, format, check digit, BIN', () => {
    expect(checkCardNumber('')).toBe('account.number.required');
    expect(checkCardNumber('12345678901')).toBe('account.number.format');
    expect(checkCardNumber('1'.repeat(20))).toBe('account.number.format');
    expect(checkCardNumber('5424 18ab 0000 0005')).toBe('account.number.format');
    expect(checkCardNumber('5424180000000005')).toBe('account.number.luhn');
    expect(checkCardNumber('5424180000000007', ['411111', '542418'])).toBeUndefined();
    expect(checkCardNumber('5424180000000007', ['411111'])).toBe('account.number.bin');
  });
});

describe('parseCardBins', () => {
  it('reads 6–16-digit BINs separated by commas, spaces or lines', () => {
    expect(parseCardBins('542418, 411111\n4000000000000002')).toEqual({
      bins: ['542418', '411111', '4000000000000002'],
    });
    expect(parseCardBins('')).toEqual({ bins: [] });
  });
  it('refuses a short, long or non-digit BIN, a repeated one and a list over 255 characters', () => {
    expect(parseCardBins('54241')).toEqual({ problem: 'issuer.cardBins.format' });
    expect(parseCardBins('1'.repeat(17))).toEqual({ problem: 'issuer.cardBins.format' });
    expect(parseCardBins('54241x')).toEqual({ problem: 'issuer.cardBins.format' });
    expect(parseCardBins('542418,542418')).toEqual({ problem: 'issuer.cardBins.duplicate' });
    expect(parseCardBins(Array.from({ length: 40 }, (_, i) => String(100000 + i)).join(','))).toEqual({
      problem: 'issuer.cardBins.tooLong',
    });
  });
});

describe('checkCardAlias (seed 001 §9)', () => {
  it('refuses the number itself and any alias holding its positions 7–12', () => {
    const number = '5424181234567890';
    expect(checkCardAlias(number, number)).toBe('card.alias.isNumber');
    expect(checkCardAlias('5424 1812 3456 7890', number)).toBe('card.alias.isNumber');
    expect(checkCardAlias('Travel 123456', number)).toBe('card.alias.containsNumber');
    expect(checkCardAlias('Travel 1-2-3-4-5-6', number)).toBe('card.alias.containsNumber');
    expect(checkCardAlias('Travel 7890', number)).toBeUndefined();
    expect(checkCardAlias('Travel 4111 1111 1111 1111', number)).toBe('text.cardNumber');
    expect(checkCardAlias('Travel', '')).toBeUndefined();
    expect(checkCardAlias('Travel 4111 1111 1111 1111', '')).toBe('text.cardNumber');
    expect(checkCardAlias('  ', number)).toBe('card.alias.required');
    expect(checkCardAlias('x'.repeat(41), number)).toBe('card.alias.tooLong');
  });
  it('never accepts an alias that carries the hidden digits', () => {
    fc.assert(
      fc.property(cardNumber, fc.string(), fc.string(), (number, before, after) => {
        expect(checkCardAlias(`${before}${number.slice(6, 12)}${after}`, number)).not.toBeUndefined();
      }),
    );
  });
});

describe('maskCardParts', () => {
  it('shows the BIN and last four only, as long as the number', () => {
    fc.assert(
      fc.property(cardNumber, (number) => {
        const masked = maskCardParts(cardNumberParts(number));
        expect(masked).toHaveLength(number.length);
        expect(masked.slice(0, 6)).toBe(number.slice(0, 6));
        expect(masked.slice(-4)).toBe(number.slice(-4));
        expect(masked.slice(6, -4)).toMatch(/^\*+$/);
        expect(maskCardParts(cardNumberParts(number), { showBin: false })).toBe(
          `${'*'.repeat(number.length - 4)}${number.slice(-4)}`,
        );
      }),
    );
  });
});
