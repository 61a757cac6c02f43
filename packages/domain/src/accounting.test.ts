import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNTING_LIMITS,
  type AccountingCodeKind,
  type CodeNode,
  codeLengthProblem,
  codeNameProblem,
  customerCodeProblem,
  dependencyOrder,
  dependencyProblem,
  effectiveEntry,
  valueDescriptionProblem,
  valueKeyOf,
} from './accounting.ts';

const list = (id: number, dependsOn: number | null = null): CodeNode => ({ id, kind: 'list', dependsOn });

/** Whether following `dependsOn` from any code ever comes back to it. */
function hasCircle(codes: readonly CodeNode[]): boolean {
  const byId = new Map(codes.map((c) => [c.id, c]));
  return codes.some((start) => {
    const seen = new Set<number>();
    for (let at: CodeNode | undefined = start; at?.dependsOn != null; at = byId.get(at.dependsOn)) {
      if (seen.has(at.id)) return true;
      seen.add(at.id);
    }
    return false;
  });
}

/** The longest chain of dependent codes. */
function deepest(codes: readonly CodeNode[]): number {
  const byId = new Map(codes.map((c) => [c.id, c]));
  let max = 0;
  for (const start of codes) {
    let depth = 0;
    for (let at: CodeNode | undefined = start; at?.dependsOn != null; at = byId.get(at.dependsOn)) depth += 1;
    max = Math.max(max, depth);
  }
  return max;
}

describe('accounting code dependencies', () => {
  it('refuses itself, unknown codes, text codes on either side, and circles', () => {
    const codes = [list(1), list(2, 1), list(3, 2), { id: 4, kind: 'text' as const, dependsOn: null }];
    expect(dependencyProblem(codes, { id: 2, kind: 'list', dependsOn: 2 })).toBe(
      'accountingCode.dependsOn.self',
    );
    expect(dependencyProblem(codes, { id: 2, kind: 'list', dependsOn: 99 })).toBe(
      'accountingCode.dependsOn.unknown',
    );
    expect(dependencyProblem(codes, { id: 5, kind: 'list', dependsOn: 4 })).toBe(
      'accountingCode.dependsOn.text',
    );
    expect(dependencyProblem(codes, { id: 5, kind: 'text', dependsOn: 1 })).toBe(
      'accountingCode.dependsOn.text',
    );
    // 1 → 3 while 3 depends (through 2) on 1: a circle.
    expect(dependencyProblem(codes, { id: 1, kind: 'list', dependsOn: 3 })).toBe(
      'accountingCode.dependsOn.circular',
    );
    expect(dependencyProblem(codes, { id: 5, kind: 'list', dependsOn: 3 })).toBeUndefined();
    expect(dependencyProblem(codes, { id: 3, kind: 'list', dependsOn: null })).toBeUndefined();
  });

  it('allows six dependent fields in a chain, not seven', () => {
    const chain = [list(1), ...[2, 3, 4, 5, 6].map((id) => list(id, id - 1))];
    expect(dependencyProblem(chain, { id: 7, kind: 'list', dependsOn: 6 })).toBeUndefined();
    const full = [...chain, list(7, 6)];
    expect(dependencyProblem(full, { id: 8, kind: 'list', dependsOn: 7 })).toBe(
      'accountingCode.dependsOn.tooDeep',
    );
    // Hanging a chain under another lengthens every code below it.
    const two = [
      list(1),
      list(2, 1),
      list(3, 2),
      list(10),
      list(11, 10),
      list(12, 11),
      list(13, 12),
      list(14, 13),
    ];
    expect(dependencyProblem(two, { id: 10, kind: 'list', dependsOn: 3 })).toBe(
      'accountingCode.dependsOn.tooDeep',
    );
    expect(dependencyProblem(two, { id: 11, kind: 'list', dependsOn: 3 })).toBeUndefined();
  });

  it('never lets a sequence of accepted changes build a circle or a chain over six (property)', () => {
    const change = fc.record({
      id: fc.integer({ min: 1, max: 9 }),
      dependsOn: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }),
      kind: fc.constantFrom<AccountingCodeKind>('list', 'list', 'list', 'text'),
    });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 60 }), (changes) => {
        let codes: CodeNode[] = [];
        for (const next of changes) {
          const current = codes.find((c) => c.id === next.id);
          // A code's kind never changes once it exists (as the server keeps it).
          const kind = current?.kind ?? next.kind;
          const problem = dependencyProblem(codes, { id: next.id, kind, dependsOn: next.dependsOn });
          if (problem === undefined) {
            codes = [
              ...codes.filter((c) => c.id !== next.id),
              { id: next.id, kind, dependsOn: next.dependsOn },
            ];
          }
          expect(hasCircle(codes)).toBe(false);
          expect(deepest(codes)).toBeLessThanOrEqual(ACCOUNTING_LIMITS.dependentFieldsMax);
          for (const code of codes) {
            if (code.dependsOn === null) continue;
            const parent = codes.find((c) => c.id === code.dependsOn);
            expect(parent?.kind).toBe('list');
            expect(code.kind).toBe('list');
          }
        }
      }),
    );
  });

  it('accepts every change that keeps the codes acyclic, shallow and list-on-list (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
        (parents, id, dependsOn) => {
          // Start from a forest: a code may only depend on a lower id (no circle possible).
          const codes = parents.map((p, i) => list(i + 1, p !== null && p < i + 1 ? p : null));
          if (deepest(codes) > ACCOUNTING_LIMITS.dependentFieldsMax) return;
          const after = [...codes.filter((c) => c.id !== id), list(id, dependsOn)];
          const legal =
            (dependsOn === null || (dependsOn !== id && codes.some((c) => c.id === dependsOn))) &&
            !hasCircle(after) &&
            deepest(after) <= ACCOUNTING_LIMITS.dependentFieldsMax;
          expect(dependencyProblem(codes, { id, kind: 'list', dependsOn }) === undefined).toBe(legal);
        },
      ),
    );
  });

  it('orders parents before their dependants, otherwise by position', () => {
    const codes = [
      { ...list(1, 3), position: 1 },
      { ...list(2), position: 2 },
      { ...list(3, 2), position: 3 },
      { ...list(4), position: 4 },
    ];
    expect(dependencyOrder(codes).map((c) => c.id)).toEqual([2, 3, 1, 4]);
  });
});

describe('customer codes and names', () => {
  it('takes 1–25 characters, not all zeros, no card number, no markup', () => {
    expect(customerCodeProblem('4100')).toBeUndefined();
    expect(customerCodeProblem('CC-100/A & B_2.1')).toBeUndefined();
    expect(customerCodeProblem('Kostenstelle Zürich')).toBeUndefined();
    expect(customerCodeProblem('')).toBe('accountingValue.value.required');
    expect(customerCodeProblem('x'.repeat(26))).toBe('accountingValue.value.tooLong');
    expect(customerCodeProblem('x'.repeat(10), 8)).toBe('accountingValue.value.tooLong');
    expect(customerCodeProblem('0')).toBe('accountingValue.value.allZeros');
    expect(customerCodeProblem('0000000')).toBe('accountingValue.value.allZeros');
    expect(customerCodeProblem('0010')).toBeUndefined();
    expect(customerCodeProblem(' 41')).toBe('accountingValue.value.format');
    expect(customerCodeProblem('<b>')).toBe('accountingValue.value.format');
    expect(customerCodeProblem('4111111111111111')).toBe('accountingValue.value.format');
  });

  it('checks descriptions, names and text lengths', () => {
    expect(valueDescriptionProblem('')).toBeUndefined();
    expect(valueDescriptionProblem('x'.repeat(81))).toBe('accountingValue.description.tooLong');
    expect(valueDescriptionProblem('a <script>')).toBe('accountingValue.description.invalidCharacters');
    expect(codeNameProblem('Cost centre')).toBeUndefined();
    expect(codeNameProblem('')).toBe('accountingCode.name.required');
    expect(codeNameProblem('x'.repeat(26))).toBe('accountingCode.name.tooLong');
    expect(codeLengthProblem(0)).toBe('accountingCode.maxLength.range');
    expect(codeLengthProblem(25)).toBeUndefined();
    expect(codeLengthProblem(2.5)).toBe('accountingCode.maxLength.range');
  });

  it('lists up to 10,000 values, enters past it; text codes are always typed', () => {
    expect(effectiveEntry({ kind: 'list', entry: 'list' }, 10_000)).toBe('list');
    expect(effectiveEntry({ kind: 'list', entry: 'list' }, 10_001)).toBe('entry');
    expect(effectiveEntry({ kind: 'list', entry: 'entry' }, 3)).toBe('entry');
    expect(effectiveEntry({ kind: 'text', entry: 'list' }, 0)).toBe('entry');
    expect(valueKeyOf('ab-1')).toBe(valueKeyOf('AB-1'));
  });
});
