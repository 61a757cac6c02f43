import { mayOverride, type OverrideLevel } from './accounting.ts';

/**
 * Cost allocation (issue 16 item 3; seed 001 "cost allocation", §5 "percent 1-100 whole"; DESIGN §7
 * "Money"; docs/accounting.md): a transaction — or one line of its split — booked to one or more
 * codings, by amount or by percent, totalling exactly, in minor units. Every problem is a message key.
 */

export const ALLOCATION_LIMITS = {
  /** Lines of one allocation (as a split's: seed 001 "split profile 2 to 100"). */
  maxLines: 100,
  /** Transactions one mass allocation changes at once (issue 16: the bench's 10,000). */
  massMax: 10_000,
} as const;

export const ALLOCATION_MODES = ['amount', 'percent'] as const;
export type AllocationMode = (typeof ALLOCATION_MODES)[number];

const abs = (value: bigint) => (value < 0n ? -value : value);
const sign = (value: bigint) => (value < 0n ? -1 : value > 0n ? 1 : 0);

export interface AllocationProblem {
  /** The line's position (0-based); absent for the allocation as a whole. */
  index?: number;
  field: 'amount' | 'percent' | 'lines';
  problem: string;
}

/**
 * The amounts of an allocation by percent of `total`: each line its whole percent (1–100) of the total,
 * truncated toward zero, and what truncation leaves over on the last line — the stated line (DESIGN §7:
 * "a remainder goes to a stated line, never lost") — so the lines total exactly. The percents must total
 * 100; a line whose share rounds to nothing is refused (it would book nothing).
 */
export function allocateByPercent(
  total: bigint,
  percents: readonly number[],
): { amounts: bigint[] } | { problems: AllocationProblem[] } {
  const problems: AllocationProblem[] = [];
  if (percents.length === 0 || percents.length > ALLOCATION_LIMITS.maxLines)
    return { problems: [{ field: 'lines', problem: 'allocation.lines.count' }] };
  percents.forEach((percent, index) => {
    if (!Number.isInteger(percent) || percent < 1 || percent > 100)
      problems.push({ index, field: 'percent', problem: 'allocation.percent.range' });
  });
  if (problems.length > 0) return { problems };
  if (percents.reduce((a, b) => a + b, 0) !== 100)
    return { problems: [{ field: 'lines', problem: 'allocation.percent.total' }] };
  const amounts = percents.map((percent) => (total * BigInt(percent)) / 100n);
  const rest = total - amounts.reduce((a, b) => a + b, 0n);
  amounts[amounts.length - 1] = (amounts.at(-1) as bigint) + rest;
  amounts.forEach((amount, index) => {
    if (amount === 0n) problems.push({ index, field: 'percent', problem: 'allocation.amount.zero' });
  });
  return problems.length > 0 ? { problems } : { amounts };
}

/**
 * Checks an allocation by amount of `total`: 1–100 lines, each not zero and of the total's sign (a
 * refund allocates credits), totalling the total exactly ("Split amount does not total up").
 */
export function checkAllocationAmounts(total: bigint, amounts: readonly bigint[]): AllocationProblem[] {
  if (amounts.length === 0 || amounts.length > ALLOCATION_LIMITS.maxLines)
    return [{ field: 'lines', problem: 'allocation.lines.count' }];
  const problems: AllocationProblem[] = [];
  amounts.forEach((amount, index) => {
    if (amount === 0n) problems.push({ index, field: 'amount', problem: 'allocation.amount.zero' });
    else if (sign(amount) !== sign(total))
      problems.push({ index, field: 'amount', problem: 'allocation.amount.sign' });
    else if (abs(amount) > abs(total))
      problems.push({ index, field: 'amount', problem: 'allocation.amount.exceeds' });
  });
  if (problems.length > 0) return problems;
  if (amounts.reduce((a, b) => a + b, 0n) !== total) return [{ field: 'lines', problem: 'allocation.total' }];
  return [];
}

/** One code of the scheme that codes a transaction, as the coding rules see it. */
export interface CodingLine {
  codeId: number;
  kind: 'list' | 'text';
  required: boolean;
  override: OverrideLevel;
  /** The list code it depends on, when that code is in the scheme too. */
  dependsOn: number | null;
  maxLength: number;
}

/** What a list code's text names: its value (or nothing of the code), whether active, in the subset, its parent value. */
export interface ResolvedValue {
  valueId: number;
  active: boolean;
  inSubset: boolean;
  parentId: number | null;
}

export type CodingEntry = { valueId: number; text?: undefined } | { text: string; valueId?: undefined };

/**
 * Checks one coding (code id → the text entered) of a transaction against its scheme, for a user of
 * `userType`, given what it was before (`previous`, code id → entry): a required code filled; a list
 * code's text one of its values, active, offered by the line's subset and under the value chosen for
 * the code it depends on; a text code's text a customer code of its length; a code the user's type may
 * not override left as it was (seed 001 §6 "Accounting code edits depend on user override level"); no
 * code outside the scheme. Returns the entries to store and the problems by code id.
 */
export function checkCoding(
  lines: readonly CodingLine[],
  entered: Readonly<Record<string, string>>,
  resolve: (codeId: number, text: string) => ResolvedValue | undefined,
  previous: ReadonlyMap<number, CodingEntry>,
  userType: string,
  customerCodeProblem: (text: string, maxLength: number) => string | undefined,
): { entries: Map<number, CodingEntry>; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const entries = new Map<number, CodingEntry>();
  for (const key of Object.keys(entered))
    if (!lines.some((line) => String(line.codeId) === key)) problems[key] = 'allocation.code.notInScheme';
  // Parents before their dependants, so a dependant is checked against its parent's value.
  const ordered = [...lines].sort((a, b) =>
    a.dependsOn === b.codeId ? 1 : b.dependsOn === a.codeId ? -1 : 0,
  );
  const pending = [...ordered];
  const done = new Set<number>();
  while (pending.length > 0) {
    const index = pending.findIndex(
      (line) =>
        line.dependsOn === null ||
        done.has(line.dependsOn) ||
        !lines.some((l) => l.codeId === line.dependsOn),
    );
    const line = pending.splice(index === -1 ? 0 : index, 1)[0] as CodingLine;
    done.add(line.codeId);
    const key = String(line.codeId);
    const text = (entered[key] ?? '').trim();
    const before = previous.get(line.codeId);
    let entry: CodingEntry | undefined;
    if (text !== '') {
      if (line.kind === 'text') {
        const problem = customerCodeProblem(text, line.maxLength);
        if (problem) {
          problems[key] = problem;
          continue;
        }
        entry = { text };
      } else {
        const value = resolve(line.codeId, text);
        if (!value) problems[key] = 'allocation.value.unknown';
        else if (!value.active) problems[key] = 'allocation.value.inactive';
        else if (!value.inSubset) problems[key] = 'allocation.value.notInSubset';
        else if (line.dependsOn !== null) {
          const parent = entries.get(line.dependsOn);
          if (!parent?.valueId || value.parentId !== parent.valueId)
            problems[key] = 'allocation.value.otherParent';
        }
        if (problems[key]) continue;
        entry = { valueId: (value as ResolvedValue).valueId };
      }
    }
    const same =
      (entry === undefined && before === undefined) ||
      (entry !== undefined &&
        before !== undefined &&
        entry.valueId === before.valueId &&
        entry.text === before.text);
    if (!same && !mayOverride(line.override, userType)) {
      problems[key] = 'allocation.code.notAllowed';
      continue;
    }
    if (entry === undefined) {
      if (line.required) problems[key] = 'allocation.code.required';
      continue;
    }
    entries.set(line.codeId, entry);
  }
  return { entries, problems };
}
