import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkReportingStructure, type ReportingRow, wouldCreateCycle } from './reporting-structure.ts';

const tree: ReportingRow[] = [
  { number: 'A000', reportsTo: null, reportingLevel: 1 },
  { number: 'A100', reportsTo: 'A000', reportingLevel: 2 },
  { number: 'A110', reportsTo: 'A100', reportingLevel: 3 },
  { number: 'A200', reportsTo: 'a000', reportingLevel: 2 },
];

describe('reporting structure check', () => {
  it('accepts a tree (numbers compare case-insensitively)', () => {
    expect(checkReportingStructure(tree)).toEqual([]);
    expect(checkReportingStructure([])).toEqual([]);
  });
  it('reports every row on a cycle', () => {
    const rows = [
      ...tree,
      { number: 'X1', reportsTo: 'X3' },
      { number: 'X2', reportsTo: 'X1' },
      { number: 'X3', reportsTo: 'X2' },
    ];
    expect(checkReportingStructure(rows)).toEqual([
      { row: 4, number: 'X1', problem: 'orgPoint.reportsTo.cycle' },
      { row: 5, number: 'X2', problem: 'orgPoint.reportsTo.cycle' },
      { row: 6, number: 'X3', problem: 'orgPoint.reportsTo.cycle' },
    ]);
  });
  it('reports self-reference, unknown parents, duplicates and levels', () => {
    expect(
      checkReportingStructure([
        { number: 'A', reportsTo: 'A' },
        { number: 'B', reportsTo: 'nowhere' },
        { number: 'C', reportingLevel: 2 },
        { number: 'c', reportsTo: 'A' },
        { number: 'D', reportsTo: 'C', reportingLevel: 2 },
      ]),
    ).toEqual([
      { row: 0, number: 'A', problem: 'orgPoint.reportsTo.self' },
      { row: 1, number: 'B', problem: 'orgPoint.reportsTo.unknown' },
      { row: 3, number: 'c', problem: 'orgPoint.number.duplicate' },
      { row: 4, number: 'D', problem: 'orgPoint.reportingLevel.notBelowParent' },
    ]);
  });
  it('sees loops closed through the existing structure', () => {
    // Uploading A000 under A110 (which is under A100 under A000) closes a loop.
    expect(checkReportingStructure([{ number: 'A000', reportsTo: 'A110' }], tree)).toEqual([
      { row: 0, number: 'A000', problem: 'orgPoint.reportsTo.cycle' },
    ]);
    expect(checkReportingStructure([{ number: 'A300', reportsTo: 'A110' }], tree)).toEqual([]);
  });
  it('tells whether one re-parenting would create a cycle', () => {
    expect(wouldCreateCycle(tree, 'A100', 'A110')).toBe(true);
    expect(wouldCreateCycle(tree, 'A100', 'A100')).toBe(true);
    expect(wouldCreateCycle(tree, 'A110', 'A200')).toBe(false);
  });

  /** A random forest: each node reports to an earlier one or to none. */
  const forest = fc
    .array(fc.option(fc.nat(), { nil: null }), { minLength: 1, maxLength: 40 })
    .map((parents) =>
      parents.map(
        (p, i): ReportingRow => ({
          number: `N${i}`,
          reportsTo: p === null || i === 0 ? null : `N${p % i}`,
        }),
      ),
    );

  it('never reports a problem in a forest', () => {
    fc.assert(
      fc.property(forest, (rows) => {
        expect(checkReportingStructure(rows)).toEqual([]);
      }),
    );
  });
  it('always finds the loop when a node is moved under its own descendant', () => {
    fc.assert(
      fc.property(forest, fc.nat(), (rows, pick) => {
        const child = rows[pick % rows.length]!;
        if (!child.reportsTo) return;
        // Make the child's ancestor chain start at the child: its top ancestor reports to it.
        const byNumber = new Map(rows.map((r) => [r.number, r]));
        let top = byNumber.get(child.reportsTo)!;
        while (top.reportsTo) top = byNumber.get(top.reportsTo)!;
        expect(wouldCreateCycle(rows, top.number, child.number)).toBe(true);
        const changed = rows.map((r) => (r === top ? { ...r, reportsTo: child.number } : r));
        const problems = checkReportingStructure(changed);
        expect(problems.map((p) => p.number)).toContain(top.number);
        expect(problems.map((p) => p.number)).toContain(child.number);
        expect(problems.every((p) => p.problem === 'orgPoint.reportsTo.cycle')).toBe(true);
      }),
    );
  });
});
