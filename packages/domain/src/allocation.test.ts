import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerCodeProblem } from './accounting.ts';
import {
  allocateByPercent,
  type CodingEntry,
  type CodingLine,
  checkAllocationAmounts,
  checkCoding,
  type ResolvedValue,
} from './allocation.ts';

describe('allocation by percent', () => {
  it('books each whole percent, the remainder on the last line, exactly the total', () => {
    expect(allocateByPercent(1000n, [60, 40])).toEqual({ amounts: [600n, 400n] });
    // 10.01 in three thirds-ish: 33 % + 33 % + 34 % of 1001 minor units.
    expect(allocateByPercent(1001n, [33, 33, 34])).toEqual({ amounts: [330n, 330n, 341n] });
    expect(allocateByPercent(-1001n, [50, 50])).toEqual({ amounts: [-500n, -501n] });
    expect(allocateByPercent(1000n, [60, 30])).toEqual({
      problems: [{ field: 'lines', problem: 'allocation.percent.total' }],
    });
    expect(allocateByPercent(1000n, [0, 100])).toMatchObject({
      problems: [{ index: 0, problem: 'allocation.percent.range' }],
    });
    expect(allocateByPercent(1000n, [50.5, 49.5])).toMatchObject({ problems: [{ index: 0 }, { index: 1 }] });
    expect(allocateByPercent(1n, [50, 50])).toMatchObject({
      problems: [{ index: 0, problem: 'allocation.amount.zero' }],
    });
    expect(allocateByPercent(1000n, [])).toMatchObject({ problems: [{ problem: 'allocation.lines.count' }] });
  });

  it('always totals the amount exactly and keeps every line of its sign (property)', () => {
    const percents = fc
      .array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 12 })
      .map((parts) => {
        const total = parts.reduce((a, b) => a + b, 0);
        const scaled = parts.map((p) => Math.max(1, Math.floor((p * 100) / total)));
        const sum = scaled.reduce((a, b) => a + b, 0);
        scaled[scaled.length - 1] = (scaled.at(-1) as number) + 100 - sum;
        return scaled;
      })
      .filter((ps) => ps.every((p) => p >= 1 && p <= 100));
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }).filter((n) => n !== 0n),
        percents,
        (total, ps) => {
          const result = allocateByPercent(total, ps);
          if ('problems' in result) {
            // Only a share too small to book anything is refused.
            expect(result.problems.every((p) => p.problem === 'allocation.amount.zero')).toBe(true);
            return;
          }
          expect(result.amounts.reduce((a, b) => a + b, 0n)).toBe(total);
          for (const amount of result.amounts) expect(amount < 0n).toBe(total < 0n);
          expect(checkAllocationAmounts(total, result.amounts)).toEqual([]);
        },
      ),
    );
  });
});

describe('allocation by amount', () => {
  it('takes lines of the total’s sign that total it exactly', () => {
    expect(checkAllocationAmounts(1000n, [400n, 600n])).toEqual([]);
    expect(checkAllocationAmounts(1000n, [400n, 500n])).toEqual([
      { field: 'lines', problem: 'allocation.total' },
    ]);
    expect(checkAllocationAmounts(1000n, [1100n, -100n])).toEqual([
      { index: 0, field: 'amount', problem: 'allocation.amount.exceeds' },
      { index: 1, field: 'amount', problem: 'allocation.amount.sign' },
    ]);
    expect(checkAllocationAmounts(-500n, [-500n])).toEqual([]);
    expect(checkAllocationAmounts(1000n, [0n, 1000n])).toMatchObject([
      { index: 0, problem: 'allocation.amount.zero' },
    ]);
  });

  it('accepts exactly the lines that total the amount (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 12n }), { minLength: 1, maxLength: 20 }),
        fc.bigInt({ min: -5n, max: 5n }),
        (lines, drift) => {
          const total = lines.reduce((a, b) => a + b, 0n) + drift;
          const ok = checkAllocationAmounts(total, lines).length === 0;
          expect(ok).toBe(drift === 0n);
        },
      ),
    );
  });
});

describe('coding against a scheme', () => {
  const lines: CodingLine[] = [
    { codeId: 1, kind: 'list', required: true, override: 'cardholder', dependsOn: null, maxLength: 25 },
    { codeId: 2, kind: 'list', required: false, override: 'cardholder', dependsOn: 1, maxLength: 25 },
    { codeId: 3, kind: 'list', required: true, override: 'manager', dependsOn: null, maxLength: 25 },
    { codeId: 4, kind: 'text', required: false, override: 'cardholder', dependsOn: null, maxLength: 6 },
  ];
  const values: Record<string, ResolvedValue> = {
    '1:6100': { valueId: 61, active: true, inSubset: true, parentId: null },
    '1:6200': { valueId: 62, active: true, inSubset: false, parentId: null },
    '1:6300': { valueId: 63, active: false, inSubset: true, parentId: null },
    '2:AIR': { valueId: 70, active: true, inSubset: true, parentId: 61 },
    '2:STAFF': { valueId: 71, active: true, inSubset: true, parentId: 62 },
    '3:4100': { valueId: 41, active: true, inSubset: true, parentId: null },
    '3:4200': { valueId: 42, active: true, inSubset: true, parentId: null },
  };
  const resolve = (codeId: number, text: string) => values[`${codeId}:${text.toUpperCase()}`];
  const defaults = new Map<number, CodingEntry>([[3, { valueId: 41 }]]);
  const check = (entered: Record<string, string>, type = 'A', previous = defaults) =>
    checkCoding(lines, entered, resolve, previous, type, customerCodeProblem);

  it('takes a coding that keeps to the scheme', () => {
    const result = check({ 1: '6100', 2: 'air', 3: '4100', 4: 'P-12' });
    expect(result.problems).toEqual({});
    expect(Object.fromEntries(result.entries)).toEqual({
      1: { valueId: 61 },
      2: { valueId: 70 },
      3: { valueId: 41 },
      4: { text: 'P-12' },
    });
  });

  it('names each problem by code: unknown, inactive, outside the subset, under another parent, too long, required, outside the scheme', () => {
    expect(check({ 1: '9999', 3: '4100' }).problems).toEqual({ 1: 'allocation.value.unknown' });
    expect(check({ 1: '6300', 3: '4100' }).problems).toEqual({ 1: 'allocation.value.inactive' });
    expect(check({ 1: '6200', 3: '4100' }).problems).toEqual({ 1: 'allocation.value.notInSubset' });
    expect(check({ 1: '6100', 2: 'STAFF', 3: '4100' }).problems).toEqual({
      2: 'allocation.value.otherParent',
    });
    expect(check({ 1: '6100', 3: '4100', 4: 'TOO-LONG' }).problems).toEqual({
      4: 'accountingValue.value.tooLong',
    });
    expect(check({ 3: '4100' }).problems).toEqual({ 1: 'allocation.code.required' });
    expect(check({ 1: '6100', 3: '4100', 9: 'X' }).problems).toEqual({ 9: 'allocation.code.notInScheme' });
  });

  it('lets only the override level change a code: a cardholder keeps the manager’s code, a manager changes it', () => {
    expect(check({ 1: '6100', 3: '4200' }, 'A').problems).toEqual({ 3: 'allocation.code.notAllowed' });
    expect(check({ 1: '6100', 3: '' }, 'A').problems).toEqual({ 3: 'allocation.code.notAllowed' });
    expect(check({ 1: '6100', 3: '4200' }, 'O').problems).toEqual({});
    expect(check({ 1: '6100', 3: '4200' }, 'C').problems).toEqual({});
    expect(check({ 1: '6100', 3: '4200' }, 'Z').problems).toMatchObject({ 3: 'allocation.code.notAllowed' });
  });
});
