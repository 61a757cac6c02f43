import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toMajorUnits } from './money.ts';
import { checkTransactionRecord, isIsoDate, mccCategory } from './transactions.ts';

const GOOD = {
  reference: 'TX-0001',
  account_number: '5424 1800 0000 0015',
  transaction_date: '2026-10-01',
  posting_date: '2026-10-03',
  merchant_name: 'Lufthansa',
  merchant_city: 'Frankfurt',
  merchant_country: 'de',
  mcc: '3008',
  amount: '412.50',
  currency: 'eur',
  tax_amount: '65.86',
};

describe('checkTransactionRecord', () => {
  it('answers the transaction in minor units with the number as digits', () => {
    expect(checkTransactionRecord(GOOD)).toEqual({
      transaction: {
        reference: 'TX-0001',
        accountNumber: '5424180000000015',
        transactionDate: '2026-10-01',
        postingDate: '2026-10-03',
        merchantName: 'Lufthansa',
        merchantCity: 'Frankfurt',
        merchantCountry: 'DE',
        mcc: '3008',
        amount: 41250n,
        currency: 'EUR',
        tax: 6586n,
      },
    });
  });
  it('names every field that is wrong, once each', () => {
    const result = checkTransactionRecord({
      reference: ' ',
      account_number: '5424180000000018',
      transaction_date: '2026-02-30',
      posting_date: '2026-13-01',
      merchant_name: 'x'.repeat(61),
      merchant_city: 'Bad\u0007City',
      merchant_country: 'DEU',
      mcc: '30a8',
      amount: '12.345',
      currency: 'EUR',
      tax_amount: '1,00',
    });
    expect(result).toEqual({
      problems: [
        { field: 'reference', problem: 'transaction.reference.required' },
        { field: 'account_number', problem: 'account.number.luhn' },
        { field: 'transaction_date', problem: 'transaction.date.format' },
        { field: 'posting_date', problem: 'transaction.date.format' },
        { field: 'merchant_name', problem: 'transaction.merchantName.tooLong' },
        { field: 'merchant_city', problem: 'transaction.merchantCity.format' },
        { field: 'merchant_country', problem: 'transaction.country.format' },
        { field: 'mcc', problem: 'transaction.mcc.format' },
        { field: 'amount', problem: 'money.amount.decimals' },
        { field: 'tax_amount', problem: 'money.amount.format' },
      ],
    });
  });
  it('refuses a posting before the transaction, a zero amount, and a tax larger than or against the amount', () => {
    const problems = (patch: Partial<typeof GOOD>) => {
      const result = checkTransactionRecord({ ...GOOD, ...patch });
      return 'problems' in result ? result.problems.map((p) => p.problem) : [];
    };
    expect(problems({ posting_date: '2026-09-30' })).toEqual(['transaction.postingDate.beforeTransaction']);
    expect(problems({ amount: '0.00' })).toEqual(['money.amount.zero']);
    expect(problems({ tax_amount: '412.51' })).toEqual(['transaction.tax.exceedsAmount']);
    expect(problems({ amount: '-412.50' })).toEqual(['transaction.tax.exceedsAmount']);
    expect(problems({ amount: '-412.50', tax_amount: '-65.86' })).toEqual([]);
    expect(problems({ tax_amount: '' })).toEqual([]);
    expect(problems({ currency: 'EURO' })).toEqual(['money.currency.unknown']);
    expect(problems({ reference: 'a b' })).toEqual(['transaction.reference.format']);
  });
  it('reads any amount a file may carry of a 0-, 2- or 3-decimal currency exactly (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('JPY', 'EUR', 'BHD'),
        fc.bigInt({ min: 1n, max: 10n ** 13n - 1n }),
        fc.boolean(),
        (currency, minor, credit) => {
          const amount = credit ? -minor : minor;
          const result = checkTransactionRecord({
            ...GOOD,
            currency,
            amount: toMajorUnits(amount, currency),
            tax_amount: toMajorUnits(amount / 5n, currency),
          });
          expect('transaction' in result && result.transaction.amount).toBe(amount);
          expect('transaction' in result && result.transaction.tax).toBe(amount / 5n);
        },
      ),
    );
  });
});

describe('isIsoDate and mccCategory', () => {
  it('knows calendar dates', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-1-01')).toBe(false);
  });
  it('groups merchant category codes', () => {
    expect(mccCategory('3008')).toBe('airlines');
    expect(mccCategory('7011')).toBe('lodging');
    expect(mccCategory('5812')).toBe('restaurants');
    expect(mccCategory('5542')).toBe('fuel');
    expect(mccCategory('0742')).toBe('other');
  });
});
