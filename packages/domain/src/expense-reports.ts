import { hasMarkupOrControls } from './expenses.ts';

/**
 * Expense reports (issue 17 items 2 and 3, docs/expenses.md; seed 001 §4 "Expense reports: saved,
 * submitted for approval, approved; rerouting needs Submitted or Approved status and an individual
 * approver; a report cannot be submitted twice; auto-resubmitted once a policy exists", §6 "Cardholders
 * only may create expense reports"): their states, their lines' rules, the policy's flags and the
 * approval route. Pure rules: the server decides with them, the screens say them first, and the
 * workflow's property tests drive `routeReport` directly.
 */

/**
 * A report's states: `Saved` (its cardholder edits it), `Held` (submitted while the company has no
 * expense policy: it is submitted again, automatically, when one is saved), `Submitted` (on its approval
 * route), `Approved`, `SentBack` (an approver returned it with a reason: the cardholder edits and submits
 * it again).
 */
export const EXPENSE_REPORT_STATUSES = ['Saved', 'Held', 'Submitted', 'Approved', 'SentBack'] as const;
export type ExpenseReportStatus = (typeof EXPENSE_REPORT_STATUSES)[number];

/** The states of an open report: its cardholder cannot be deactivated (seed 001 §6). */
export const OPEN_EXPENSE_REPORT_STATUSES: readonly ExpenseReportStatus[] = [
  'Saved',
  'Held',
  'Submitted',
  'SentBack',
];

/** A line's kind: a card transaction of the cardholder, an out-of-pocket cost, or a journey. */
export const EXPENSE_LINE_KINDS = ['card', 'cash', 'mileage'] as const;
export type ExpenseLineKind = (typeof EXPENSE_LINE_KINDS)[number];

/** The policy's flags on a line: above its type's limit, or without the receipt its amount needs. */
export const EXPENSE_LINE_FLAGS = ['overLimit', 'receiptMissing'] as const;
export type ExpenseLineFlag = (typeof EXPENSE_LINE_FLAGS)[number];

export const EXPENSE_REPORT_LIMITS = {
  /** A report's name (ours). */
  nameMaxLength: 80,
  /** Lines of one report (ours: a month of a busy traveller's card, with room to spare). */
  linesPerReport: 200,
  /** Seed 001 §9: "File size 4 MB"; receipts "JPG, PDF or PNG". */
  receiptMaxBytes: 4 * 1024 * 1024,
  /** A receipt's file name as shown (ours). */
  receiptNameMaxLength: 120,
  /** The reason a report is sent back, or a reroute's note (ours). */
  noteMaxLength: 500,
  /** Odometer readings are whole units of the rate (km or mi), 0 to this (a seven-digit odometer). */
  odometerMax: 9_999_999,
  /** A property's value on a line (ours, as a custom field's setting value: seed 001 §5 "1-255"). */
  propertyValueMaxLength: 255,
} as const;

/** A report's name: required, at most 80 characters, no markup or control characters. */
export function reportNameProblem(name: string): string | undefined {
  const text = name.trim();
  if (text === '') return 'expenseReport.name.required';
  if ([...text].length > EXPENSE_REPORT_LIMITS.nameMaxLength) return 'expenseReport.name.tooLong';
  if (/[<>\p{Cc}]/u.test(text)) return 'expenseReport.name.invalidCharacters';
  return undefined;
}

/**
 * A note (why a report is sent back — required —, or a reroute's): at most 500 characters, line breaks
 * and tabs allowed, no markup or other control characters.
 */
export function reportNoteProblem(note: string, required: boolean): string | undefined {
  const text = note.trim();
  if (text === '') return required ? 'expenseReport.note.required' : undefined;
  if ([...text].length > EXPENSE_REPORT_LIMITS.noteMaxLength) return 'expenseReport.note.tooLong';
  if (hasMarkupOrControls(text)) return 'expenseReport.note.invalidCharacters';
  return undefined;
}

/** Whether the report's cardholder may change it (its name, lines, receipts) or delete it. */
export const isReportEditable = (status: ExpenseReportStatus): boolean =>
  status === 'Saved' || status === 'SentBack';

/**
 * Why the report may not be submitted now, or undefined: only an editable report is submitted (a second
 * submit of a submitted, held or approved report is `expenseReport.alreadySubmitted`: "a report cannot be
 * submitted twice"), and only with at least one line.
 */
export function submitProblem(status: ExpenseReportStatus, lines: number): string | undefined {
  if (!isReportEditable(status)) return 'expenseReport.alreadySubmitted';
  if (lines === 0) return 'expenseReport.noLines';
  return undefined;
}

/** Seed 001 §4: "rerouting needs Submitted or Approved status". */
export const isReroutable = (status: ExpenseReportStatus): boolean =>
  status === 'Submitted' || status === 'Approved';

/**
 * Seed 001 §5 "odometer start below end": whole readings from 0 to `odometerMax`, start below end; the
 * problem's key, or undefined.
 */
export function odometerProblem(start: number, end: number): string | undefined {
  const max = EXPENSE_REPORT_LIMITS.odometerMax;
  const valid = (n: number) => Number.isSafeInteger(n) && n >= 0 && n <= max;
  if (!valid(start) || !valid(end)) return 'expenseLine.odometer.range';
  if (start >= end) return 'expenseLine.odometer.order';
  return undefined;
}

/**
 * A line's description: required, at most the policy's length (10–255, seed 001 §5; 255 while the
 * company has no policy), no markup or control characters.
 */
export function lineDescriptionProblem(description: string, maxLength: number): string | undefined {
  const text = description.trim();
  if (text === '') return 'expenseLine.description.required';
  if ([...text].length > maxLength) return 'expenseLine.description.tooLong';
  if (/[<>\p{Cc}]/u.test(text)) return 'expenseLine.description.invalidCharacters';
  return undefined;
}

/** The policy's flags on a line of `amount` (minor units of the policy's currency). */
export function lineFlags(line: {
  amountMinor: bigint;
  limitMinor: bigint | null;
  receiptAboveMinor: bigint | null;
  hasReceipt: boolean;
}): ExpenseLineFlag[] {
  const flags: ExpenseLineFlag[] = [];
  if (line.limitMinor !== null && line.amountMinor > line.limitMinor) flags.push('overLimit');
  if (line.receiptAboveMinor !== null && line.amountMinor > line.receiptAboveMinor && !line.hasReceipt)
    flags.push('receiptMissing');
  return flags;
}

/** A report's total: the sum of its lines, in minor units (never a float). */
export const reportTotal = (lines: readonly { amountMinor: bigint }[]): bigint =>
  lines.reduce((sum, line) => sum + line.amountMinor, 0n);

/**
 * Of `members` approvers, how many must approve a step that needs `percentage` of them: rounded up,
 * at least one (Finance at 50 % of 3 is 2).
 */
export function requiredApprovals(percentage: number, members: number): number {
  if (members <= 0) return 0;
  return Math.max(1, Math.min(members, Math.ceil((percentage * members) / 100)));
}

// ---------------------------------------------------------------------------------------------------
// The approval route (issue 17 item 3, docs/expenses.md "Routing")
// ---------------------------------------------------------------------------------------------------

/** An approver and their approval limit in the report's currency (null: no profile in that currency). */
export interface RouteApprover {
  userPk: number;
  limitMinor: bigint | null;
}

/** One level of the reporting structure above the cardholder: an org point and its level managers. */
export interface RouteLevel {
  orgPointId: number;
  managers: RouteApprover[];
}

/** An approval given in the report's current round: who, and for which step. */
export interface RouteApproval {
  userPk: number;
  step: string;
}

/** Everything the route depends on, read fresh at every action (a configuration change applies at once). */
export interface RouteContext {
  totalMinor: bigint;
  /** The cardholder's user: never an approver of its own report. */
  ownerPk: number;
  /** The org points from the cardholder's up to the top, nearest first, each with its active level managers. */
  levels: RouteLevel[];
  /** Every active member of an approval profile of the company, with the profile's limit. */
  authorities: RouteApprover[];
  /** The highest threshold the total is above, with its profile's active members and percentage. */
  threshold: { id: number; members: number[]; percentage: number } | null;
  /** Approvals given since the report was last submitted, oldest first. */
  approvals: RouteApproval[];
  /** A reroute waiting for its approver: the step it was given for (or `review:n` after approval). */
  reroute: { userPk: number; step: string } | null;
}

export interface RouteStep {
  /** `level:<org point>`, `authority`, `threshold:<id>`, a rerouted step's key, or `review:<n>`. */
  step: string;
  /** Who may approve it (any of them), never the cardholder nor anyone who already approved. */
  approvers: number[];
  /** How many more of them must approve. */
  needed: number;
}

export type RouteResult =
  | { state: 'pending'; step: RouteStep }
  | { state: 'approved' }
  /** Nobody can take the step (no authority covers the total, a threshold profile without members). */
  | { state: 'unroutable'; step: string };

/** Whether an approver's limit covers the total (an approver of the report's own currency). */
const covers = (limit: bigint | null | undefined, total: bigint): boolean =>
  limit !== null && limit !== undefined && limit >= total;

/**
 * Where a report stands on its route. The rules, in order:
 * 1. A reroute waiting for its approver comes first: that person takes the step it was given for.
 * 2. Authority: someone whose approval limit covers the total must approve. Until then the report
 *    climbs the reporting structure: the nearest org point with a level manager other than the
 *    cardholder, one approval per level; an approval that does not cover the total sends it one level
 *    up (escalation). Past the top, any profile member whose limit covers it ("authority").
 * 3. Threshold: above a threshold, the share of its profile's members the profile asks for.
 * Nobody approves their own report, nobody approves twice in a round, every level is visited once (the
 * org points form a tree; a repeated one is skipped all the same): the route always ends, approved or
 * unroutable, within (approvers + levels + reroutes) approvals.
 */
export function routeReport(ctx: RouteContext): RouteResult {
  const approved = new Set(ctx.approvals.map((a) => a.userPk));
  const limits = new Map<number, bigint | null>();
  for (const level of ctx.levels) for (const m of level.managers) limits.set(m.userPk, m.limitMinor);
  for (const a of ctx.authorities) limits.set(a.userPk, a.limitMinor);

  const reroute = ctx.reroute;
  if (reroute && !ctx.approvals.some((a) => a.userPk === reroute.userPk && a.step === reroute.step)) {
    if (reroute.userPk === ctx.ownerPk || approved.has(reroute.userPk))
      return { state: 'unroutable', step: reroute.step };
    return { state: 'pending', step: { step: reroute.step, approvers: [reroute.userPk], needed: 1 } };
  }

  const authorised = ctx.approvals.some(
    (a) => a.userPk !== ctx.ownerPk && covers(limits.get(a.userPk), ctx.totalMinor),
  );
  if (!authorised) {
    const seen = new Set<number>();
    for (const level of ctx.levels) {
      if (seen.has(level.orgPointId)) continue;
      seen.add(level.orgPointId);
      const managers = level.managers.filter((m) => m.userPk !== ctx.ownerPk);
      if (managers.length === 0) continue;
      const step = `level:${level.orgPointId}`;
      if (ctx.approvals.some((a) => a.step === step)) continue;
      const open = managers.filter((m) => !approved.has(m.userPk)).map((m) => m.userPk);
      if (open.length === 0) continue;
      return { state: 'pending', step: { step, approvers: open, needed: 1 } };
    }
    const pool = ctx.authorities
      .filter(
        (a) => a.userPk !== ctx.ownerPk && !approved.has(a.userPk) && covers(a.limitMinor, ctx.totalMinor),
      )
      .map((a) => a.userPk);
    if (pool.length === 0) return { state: 'unroutable', step: 'authority' };
    return { state: 'pending', step: { step: 'authority', approvers: unique(pool), needed: 1 } };
  }

  const threshold = ctx.threshold;
  if (threshold) {
    const members = unique(threshold.members.filter((pk) => pk !== ctx.ownerPk));
    const step = `threshold:${threshold.id}`;
    if (members.length === 0) return { state: 'unroutable', step };
    const needed = requiredApprovals(threshold.percentage, members.length);
    const done = members.filter((pk) => approved.has(pk)).length;
    if (done < needed)
      return {
        state: 'pending',
        step: { step, approvers: members.filter((pk) => !approved.has(pk)), needed: needed - done },
      };
  }
  return { state: 'approved' };
}

const unique = (values: number[]): number[] => [...new Set(values)];

/**
 * Whether `userPk` may approve the report now: on the pending step, not the cardholder, not acting as
 * another user (the server checks that), and the step still waits for approvals.
 */
export function mayApprove(result: RouteResult, ownerPk: number, userPk: number): boolean {
  return result.state === 'pending' && userPk !== ownerPk && result.step.approvers.includes(userPk);
}

/** Whether an approved route has what the rules ask for (the property tests' invariant). */
export function approvalIsAuthorised(ctx: RouteContext): boolean {
  const approvers = ctx.approvals.map((a) => a.userPk);
  if (approvers.includes(ctx.ownerPk)) return false;
  if (new Set(approvers).size !== approvers.length) return false;
  const limits = new Map<number, bigint | null>();
  for (const level of ctx.levels) for (const m of level.managers) limits.set(m.userPk, m.limitMinor);
  for (const a of ctx.authorities) limits.set(a.userPk, a.limitMinor);
  if (!approvers.some((pk) => covers(limits.get(pk), ctx.totalMinor))) return false;
  if (ctx.threshold) {
    const members = new Set(ctx.threshold.members.filter((pk) => pk !== ctx.ownerPk));
    const needed = requiredApprovals(ctx.threshold.percentage, members.size);
    if (needed === 0 || approvers.filter((pk) => members.has(pk)).length < needed) return false;
  }
  return true;
}
