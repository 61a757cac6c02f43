import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approvalPercentageProblem,
  decimalOfScaled,
  EXPENSE_LIMITS,
  expensePolicyProblems,
  expenseTypeProblems,
  includedTax,
  mileageAmount,
  mileageRateOf,
  scaledDecimal,
  taxRateOf,
} from './expenses.ts';

describe('expense rates and amounts (issue 17 item 1)', () => {
  it('reads a rate as an exact scaled integer and writes it back unchanged', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 999_999_999_9999n }), (scaled) => {
        const text = decimalOfScaled(scaled, 4);
        expect(scaledDecimal(text, 4)).toBe(scaled);
      }),
    );
    expect(mileageRateOf('0.655')).toEqual({ scaled: 6550n });
    expect(mileageRateOf('0.6550')).toEqual({ scaled: 6550n });
    expect(mileageRateOf('0')).toEqual({ problem: 'mileageRate.rate.positive' });
    expect(mileageRateOf('0.00001')).toEqual({ problem: 'mileageRate.rate.format' });
    expect(mileageRateOf('1e3')).toEqual({ problem: 'mileageRate.rate.format' });
    expect(mileageRateOf('-0.5')).toEqual({ problem: 'mileageRate.rate.format' });
    expect(taxRateOf('100')).toEqual({ scaled: 100_000 });
    expect(taxRateOf('100.001')).toEqual({ problem: 'taxRate.rate.range' });
    expect(taxRateOf('8.875')).toEqual({ scaled: 8_875 });
  });

  it('prices a journey in minor units, rounding half up, the same as exact arithmetic', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.bigInt({ min: 1n, max: 100_000n }),
        fc.integer({ min: 0, max: 4 }),
        (distance, rate, exponent) => {
          // Exact: distance × rate / 10^4 major units = distance × rate × 10^exponent / 10^4 minor units.
          const numerator = distance * rate * 10n ** BigInt(exponent);
          const denominator = 10_000n;
          const floor = numerator / denominator;
          const expected = (numerator - floor * denominator) * 2n >= denominator ? floor + 1n : floor;
          expect(mileageAmount(distance, rate, exponent)).toBe(expected);
        },
      ),
    );
    // 123 miles at $0.655 = $80.565 → $80.57.
    expect(mileageAmount(123n, 6_550n, 2)).toBe(8_057n);
    // 100 km at ¥30.5 = ¥3,050.
    expect(mileageAmount(100n, 305_000n, 0)).toBe(3_050n);
  });

  it('finds the tax inside a gross amount, never more than the amount, symmetric for credits', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.integer({ min: 1, max: 100_000 }),
        (gross, rate) => {
          const tax = includedTax(gross, rate);
          expect(tax < 0n ? -tax : tax).toBeLessThanOrEqual(gross < 0n ? -gross : gross);
          expect(includedTax(-gross, rate)).toBe(-tax);
          // Net plus tax is the gross, and the tax is the nearest whole minor unit to gross × r / (100 + r).
          const exact = (gross * BigInt(rate) * 2n) / (100_000n + BigInt(rate));
          expect(tax * 2n - exact).toBeGreaterThanOrEqual(-2n);
          expect(tax * 2n - exact).toBeLessThanOrEqual(2n);
        },
      ),
    );
    // $119.00 gross at 19 %: $19.00 of it is tax.
    expect(includedTax(11_900n, 19_000)).toBe(1_900n);
  });
});

describe('expense configuration rules', () => {
  it('names every problem of a type by field', () => {
    expect(expenseTypeProblems({ name: ' ', category: 'general', properties: [] })).toEqual({
      name: 'expenseType.name.required',
    });
    const properties = Array.from({ length: EXPENSE_LIMITS.propertiesPerType + 1 }, (_, i) => ({
      label: `P${i}`,
      kind: 'text' as const,
      required: false,
    }));
    expect(expenseTypeProblems({ name: 'Taxi', category: 'general', properties })).toEqual({
      properties: 'expenseType.properties.tooMany',
    });
    expect(
      expenseTypeProblems({
        name: 'Taxi',
        category: 'mileage',
        properties: [
          { label: 'Route', kind: 'text', required: true },
          { label: ' route ', kind: 'text', required: false },
        ],
      }),
    ).toEqual({ properties: 'expenseType.properties.duplicate' });
  });

  it('keeps the approval percentage whole and within 1–100, and the policy within its limits', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), (value) => {
        const ok = Number.isInteger(value) && value >= 1 && value <= 100;
        expect(approvalPercentageProblem(value) === undefined).toBe(ok);
      }),
    );
    expect(
      expensePolicyProblems({ descriptionMaxLength: 10, workflowInstructions: 'Line 1\nLine 2\tend' }),
    ).toEqual({});
    expect(expensePolicyProblems({ descriptionMaxLength: 256, workflowInstructions: '<script>' })).toEqual({
      descriptionMaxLength: 'expensePolicy.descriptionMaxLength.range',
      workflowInstructions: 'expensePolicy.workflowInstructions.invalidCharacters',
    });
    expect(
      expensePolicyProblems({ descriptionMaxLength: 255, workflowInstructions: 'x'.repeat(901) }),
    ).toEqual({
      workflowInstructions: 'expensePolicy.workflowInstructions.tooLong',
    });
  });
});
