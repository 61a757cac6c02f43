/**
 * Whole-structure checks of a company's reporting structure (seed 001 §5: "dependencies cannot be
 * circular"): pure functions over `{ number, reportsTo }` rows, for the upload (per-row error report,
 * all or nothing) and for any single change. Org point numbers compare case-insensitively.
 */

export interface ReportingRow {
  number: string;
  /** Number of the org point this one reports to; null/undefined/'' at the top. */
  reportsTo?: string | null;
  /** Reporting level (1 = top), when known: a child must sit below its parent. */
  reportingLevel?: number;
}

export type ReportingProblem =
  | 'orgPoint.number.duplicate'
  | 'orgPoint.reportsTo.self'
  | 'orgPoint.reportsTo.unknown'
  | 'orgPoint.reportsTo.cycle'
  | 'orgPoint.reportingLevel.notBelowParent';

export interface ReportingRowProblem {
  /** Index of the row in the input (an upload adds its header offset). */
  row: number;
  number: string;
  problem: ReportingProblem;
}

const key = (n: string) => n.trim().toLowerCase();

/**
 * Checks a reporting structure: duplicate numbers, self-reference, a parent that is neither in the rows
 * nor in `existing` (numbers already in the company), cycles (every row on a cycle is reported), and a
 * child whose reporting level is not below its parent's. An empty answer means the structure is a forest.
 * `existing` rows take part in cycle detection too, so an upload cannot close a loop through them;
 * an uploaded row with the same number replaces the existing one.
 */
export function checkReportingStructure(
  rows: readonly ReportingRow[],
  existing: readonly ReportingRow[] = [],
): ReportingRowProblem[] {
  const problems: ReportingRowProblem[] = [];
  const parentOf = new Map<string, string | null>();
  const levelOf = new Map<string, number | undefined>();
  for (const r of existing) {
    parentOf.set(key(r.number), r.reportsTo ? key(r.reportsTo) : null);
    levelOf.set(key(r.number), r.reportingLevel);
  }
  const firstRow = new Map<string, number>();
  rows.forEach((r, i) => {
    const k = key(r.number);
    if (firstRow.has(k)) {
      problems.push({ row: i, number: r.number, problem: 'orgPoint.number.duplicate' });
      return;
    }
    firstRow.set(k, i);
    parentOf.set(k, r.reportsTo ? key(r.reportsTo) : null);
    levelOf.set(k, r.reportingLevel);
  });

  const onCycle = new Set<string>();
  rows.forEach((r, i) => {
    const k = key(r.number);
    if (firstRow.get(k) !== i || !r.reportsTo) return;
    const parent = key(r.reportsTo);
    if (parent === k) {
      problems.push({ row: i, number: r.number, problem: 'orgPoint.reportsTo.self' });
      onCycle.add(k);
    } else if (!parentOf.has(parent)) {
      problems.push({ row: i, number: r.number, problem: 'orgPoint.reportsTo.unknown' });
    } else {
      const own = r.reportingLevel;
      const theirs = levelOf.get(parent);
      if (own !== undefined && theirs !== undefined && own <= theirs)
        problems.push({ row: i, number: r.number, problem: 'orgPoint.reportingLevel.notBelowParent' });
    }
  });

  // Cycles: follow parents with three colours; a walk that meets its own path marks that loop.
  const state = new Map<string, 'walking' | 'done'>();
  for (const start of parentOf.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [];
    let at: string | null | undefined = start;
    while (at !== null && at !== undefined && parentOf.has(at) && !state.has(at)) {
      state.set(at, 'walking');
      path.push(at);
      at = parentOf.get(at);
    }
    if (at !== null && at !== undefined && state.get(at) === 'walking') {
      for (let i = path.indexOf(at); i < path.length; i++) onCycle.add(path[i] as string);
    }
    for (const p of path) state.set(p, 'done');
  }
  rows.forEach((r, i) => {
    const k = key(r.number);
    if (firstRow.get(k) !== i || !onCycle.has(k)) return;
    if (r.reportsTo && key(r.reportsTo) === k) return; // already reported as self
    problems.push({ row: i, number: r.number, problem: 'orgPoint.reportsTo.cycle' });
  });
  return problems.sort((a, b) => a.row - b.row);
}

/** Whether making `number` report to `newParent` would close a loop, given the current rows. */
export function wouldCreateCycle(rows: readonly ReportingRow[], number: string, newParent: string): boolean {
  const parentOf = new Map(rows.map((r) => [key(r.number), r.reportsTo ? key(r.reportsTo) : null]));
  const target = key(number);
  const seen = new Set<string>();
  for (let at: string | null | undefined = key(newParent); at; at = parentOf.get(at)) {
    if (at === target) return true;
    if (seen.has(at)) return false; // an existing loop elsewhere; not this change's doing
    seen.add(at);
  }
  return false;
}
