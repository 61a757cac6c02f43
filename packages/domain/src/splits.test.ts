import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDispute } from './disputes.ts';
import { checkCardholderReasons, checkIssuerCode } from './issuer-codes.ts';
import { currencyExponent, parseMinorUnits, toMajorUnits } from './money.ts';
import { checkPurchaseDetailsEdit, checkSplit, SPLIT_LIMITS, type SplitLine, splitEvenly } from './splits.ts';
import { checkExportRange } from './transactions.ts';

/**
 * Splits (issue 15 item 5) as properties over currencies with 0, 2, 3 and 4 decimals and 2–100 lines:
 * an even split always totals exactly and is accepted; moving one minor unit anywhere breaks the total
 * ("Split amount does not total up"); lines written in major units and read back are the same minor
 * units. Never a float: amounts are bigints from end to end.
 */

const CURRENCIES = ['JPY', 'KRW', 'USD', 'EUR', 'GBP', 'BHD', 'KWD', 'CLF'] as const;
const sum = (lines: readonly SplitLine[], field: 'amount' | 'tax') =>
  lines.reduce((s, l) => s + l[field], 0n);

/** A transaction (amount ≠ 0, tax of its sign and not above it) and a line count it can be split into. */
const transaction = fc
  .record({
    magnitude: fc.bigInt({ min: 2n, max: 10n ** 13n - 1n }), // the largest amount a file or form takes in any currency
    taxShare: fc.integer({ min: 0, max: 100 }),
    refund: fc.boolean(),
    count: fc.integer({ min: SPLIT_LIMITS.minLines, max: SPLIT_LIMITS.maxLines }),
    currency: fc.constantFrom(...CURRENCIES),
  })
  .filter((t) => t.magnitude >= BigInt(t.count))
  .map((t) => {
    const sign = t.refund ? -1n : 1n;
    const amount = sign * t.magnitude;
    const tax = (amount * BigInt(t.taxShare)) / 100n;
    return { amount, tax, count: t.count, currency: t.currency };
  });

describe('split', () => {
  it('an even split totals exactly, each line of the sign and its tax within it, and is accepted', () => {
    fc.assert(
      fc.property(transaction, ({ amount, tax, count }) => {
        const lines = splitEvenly(amount, tax, count);
        expect(lines).toHaveLength(count);
        expect(sum(lines, 'amount')).toBe(amount);
        expect(sum(lines, 'tax')).toBe(tax);
        const shares = lines.map((l) => l.amount).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const spread = (shares.at(-1) ?? 0n) - (shares[0] ?? 0n);
        expect(spread <= 1n).toBe(true); // the remainder one minor unit at a time, never lost
        expect(checkSplit({ amount, tax }, lines)).toEqual({ lines: [] });
      }),
    );
  });

  it('one minor unit more or less on any line is refused as not totalling up', () => {
    fc.assert(
      fc.property(transaction, fc.nat(), fc.constantFrom(1n, -1n), ({ amount, tax, count }, pick, delta) => {
        const lines = splitEvenly(amount, tax, count);
        const i = pick % count;
        const line = lines[i] as SplitLine;
        const moved = line.amount + delta;
        // Only where the line stays valid on its own: then the totals alone are wrong.
        fc.pre(
          moved !== 0n &&
            moved < 0n === amount < 0n &&
            (line.tax < 0n ? -line.tax : line.tax) <= (moved < 0n ? -moved : moved),
        );
        lines[i] = { ...line, amount: moved };
        expect(checkSplit({ amount, tax }, lines).problem).toBe('transactions.split.total');
      }),
    );
  });

  it('lines written in major units read back as the same minor units in every currency', () => {
    fc.assert(
      fc.property(transaction, ({ amount, tax, count, currency }) => {
        expect(currencyExponent(currency)).toBeDefined();
        for (const line of splitEvenly(amount, tax, count)) {
          const text = toMajorUnits(line.amount, currency);
          expect(parseMinorUnits(text, currency)).toEqual({ minor: line.amount });
        }
      }),
    );
  });

  it('holds 2 to 100 lines, none zero or of the other sign, taxes within their line', () => {
    const total = { amount: 1000n, tax: 100n };
    const line = (amount: bigint, tax = 0n, description = ''): SplitLine => ({ amount, tax, description });
    expect(checkSplit(total, [line(1000n, 100n)]).problem).toBe('transactions.split.count');
    expect(
      checkSplit(
        total,
        Array.from({ length: 101 }, () => line(1n)),
      ).problem,
    ).toBe('transactions.split.count');
    expect(checkSplit({ amount: 0n, tax: 0n }, [line(1n), line(-1n)]).problem).toBe(
      'transactions.split.zero',
    );
    expect(checkSplit(total, [line(1001n, 100n), line(-1n)]).lines).toEqual([
      { index: 1, field: 'amount', problem: 'transactions.split.sign' },
    ]);
    expect(checkSplit(total, [line(1000n, 100n), line(0n)]).lines).toEqual([
      { index: 1, field: 'amount', problem: 'money.amount.zero' },
    ]);
    expect(checkSplit(total, [line(900n, 0n), line(100n, 101n)]).lines).toEqual([
      { index: 1, field: 'tax', problem: 'transaction.tax.exceedsAmount' },
    ]);
    expect(checkSplit(total, [line(900n, 100n, 'x'.repeat(1025)), line(100n, 0n, 'a\u0007')]).lines).toEqual([
      { index: 0, field: 'description', problem: 'transactions.split.descriptionTooLong' },
      { index: 1, field: 'description', problem: 'transactions.split.descriptionFormat' },
    ]);
    expect(checkSplit(total, [line(900n, 100n, 'card 4111-1111-1111-1111'), line(100n)]).lines).toEqual([
      { index: 0, field: 'description', problem: 'text.cardNumber' },
    ]);
    expect(checkSplit(total, [line(999n, 100n), line(1n, 1n)]).problem).toBe('transactions.split.total');
    expect(checkSplit(total, [line(900n, 100n, 'Hotel'), line(100n)])).toEqual({ lines: [] });
  });

  it('keeps a locked or exported transaction as it is', () => {
    expect(checkPurchaseDetailsEdit('New', false)).toBeUndefined();
    expect(checkPurchaseDetailsEdit('Approved', false)).toBeUndefined();
    expect(checkPurchaseDetailsEdit('Locked', false)).toBe('transactions.edit.locked');
    expect(checkPurchaseDetailsEdit('Approved', true)).toBe('transactions.edit.exported');
  });
});

describe('disputes and exports', () => {
  it('issuer codes: at most 2 characters without spaces, a description of at most 75, a system status', () => {
    expect(checkIssuerCode({ code: 'dp', description: 'Duplicate' }, 'dispute-reasons')).toEqual({});
    expect(checkIssuerCode({ code: 'ABC', description: 'x' }, 'maintenance-reasons')).toEqual({
      code: 'issuerCode.code.format',
    });
    expect(checkIssuerCode({ code: 'A B', description: 'x' }, 'dispute-reasons').code).toBe(
      'issuerCode.code.format',
    );
    expect(checkIssuerCode({ code: '', description: 'd'.repeat(76) }, 'dispute-reasons')).toEqual({
      code: 'issuerCode.code.required',
      description: 'issuerCode.description.tooLong',
    });
    expect(checkIssuerCode({ code: 'LS', description: 'Lost' }, 'account-status-codes')).toEqual({
      systemStatus: 'issuerCode.systemStatus.required',
    });
    expect(
      checkIssuerCode({ code: 'LS', description: 'Lost', systemStatus: 'C' }, 'account-status-codes'),
    ).toEqual({});
    expect(
      checkIssuerCode({ code: 'LS', description: 'Lost', systemStatus: 'X' }, 'account-status-codes'),
    ).toEqual({
      systemStatus: 'issuerCode.systemStatus.required',
    });
  });

  it('a cardholder carries at most 10 maintenance reason codes, none twice', () => {
    expect(checkCardholderReasons(['A1', 'a2'])).toBeUndefined();
    expect(checkCardholderReasons(['A1', 'a1'])).toBe('cardholder.reasons.duplicate');
    expect(checkCardholderReasons(Array.from({ length: 11 }, (_, i) => `R${i}`))).toBe(
      'cardholder.reasons.tooMany',
    );
  });

  it('a dispute: a reason, an amount above zero and within the transaction, an explanation of 1–1024', () => {
    expect(checkDispute({ reason: 'DP', amount: 500n, explanation: 'Twice' }, -500n)).toEqual({});
    expect(checkDispute({ reason: ' ', amount: 501n, explanation: '' }, 500n)).toEqual({
      reason: 'dispute.reason.required',
      amount: 'dispute.amount.exceedsTransaction',
      explanation: 'dispute.explanation.required',
    });
    expect(checkDispute({ reason: 'DP', amount: 0n, explanation: 'e'.repeat(1025) }, 500n)).toEqual({
      amount: 'dispute.amount.positive',
      explanation: 'dispute.explanation.tooLong',
    });
    expect(checkDispute({ reason: 'DP', amount: 1n, explanation: 'Line one\nLine two' }, 5n)).toEqual({});
    // A card number typed into the explanation is refused (it would be stored in the clear).
    expect(
      checkDispute({ reason: 'DP', amount: 1n, explanation: 'My card 5424 1800 0000 0015' }, 5n),
    ).toEqual({
      explanation: 'text.cardNumber',
    });
    expect(
      checkDispute(
        { reason: 'DP', amount: 1n, explanation: 'Invoice 2026-10-01, order 123456789012345678901' },
        5n,
      ),
    ).toEqual({});
  });

  it('an export covers real dates, From not after To, at most 30 days', () => {
    expect(checkExportRange('2026-10-01', '2026-10-30')).toEqual({});
    expect(checkExportRange('2026-10-01', '2026-10-31')).toEqual({ to: 'transactions.export.rangeTooLong' });
    expect(checkExportRange('2026-10-02', '2026-10-01')).toEqual({ to: 'dateRange.fromAfterTo' });
    expect(checkExportRange('2026-02-30', 'x')).toEqual({ from: 'date.invalid', to: 'date.invalid' });
  });
});
