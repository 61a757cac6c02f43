import { containsCardNumber } from './card-numbers.ts';
import type { TransactionStatus } from './transactions.ts';

/**
 * Splitting a transaction (seed 001 §4, §5, §9; issue 15 item 5; DESIGN §7 "Money"): 2 to 100 lines whose
 * amounts and taxes total the transaction's exactly, in minor units — never through a float. Unsplit puts
 * the transaction back as it came. Every problem is a message key (`validation.{key}`).
 */

export const SPLIT_LIMITS = {
  /** Seed 001 §5, §9: "split profile 2 to 100 splits". */
  minLines: 2,
  maxLines: 100,
  /** Seed 001 §5: "description at most 1024". */
  descriptionMaxLength: 1024,
} as const;

/** One line of a split, in minor units of the transaction's currency. */
export interface SplitLine {
  amount: bigint;
  tax: bigint;
  description: string;
}

export interface SplitLineProblem {
  /** The line's position (0-based). */
  index: number;
  field: 'amount' | 'tax' | 'description';
  problem: string;
}

export interface SplitCheck {
  /** The split as a whole: the number of lines or the totals. */
  problem?: string;
  lines: SplitLineProblem[];
}

const sign = (value: bigint) => (value < 0n ? -1 : value > 0n ? 1 : 0);
const abs = (value: bigint) => (value < 0n ? -value : value);

/**
 * Checks a split of a transaction of `amount` and `tax`: 2–100 lines (`transactions.split.count`); each
 * line's amount not zero and of the transaction's sign (a refund splits into credits); each line's tax
 * zero or of the amount's sign and not above the line's amount; a description of at most 1024 characters
 * without control characters; and the lines' amounts and taxes totalling the transaction's exactly
 * (`transactions.split.total`: "Split amount does not total up").
 */
export function checkSplit(total: { amount: bigint; tax: bigint }, lines: readonly SplitLine[]): SplitCheck {
  const problems: SplitLineProblem[] = [];
  if (lines.length < SPLIT_LIMITS.minLines || lines.length > SPLIT_LIMITS.maxLines)
    return { problem: 'transactions.split.count', lines: [] };
  if (total.amount === 0n) return { problem: 'transactions.split.zero', lines: [] };
  let amounts = 0n;
  let taxes = 0n;
  lines.forEach((line, index) => {
    if (line.amount === 0n) problems.push({ index, field: 'amount', problem: 'money.amount.zero' });
    else if (sign(line.amount) !== sign(total.amount))
      problems.push({ index, field: 'amount', problem: 'transactions.split.sign' });
    if (line.tax !== 0n && (sign(line.tax) !== sign(total.amount) || abs(line.tax) > abs(line.amount)))
      problems.push({ index, field: 'tax', problem: 'transaction.tax.exceedsAmount' });
    if ([...line.description].length > SPLIT_LIMITS.descriptionMaxLength)
      problems.push({ index, field: 'description', problem: 'transactions.split.descriptionTooLong' });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
    else if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(line.description))
      problems.push({ index, field: 'description', problem: 'transactions.split.descriptionFormat' });
    else if (containsCardNumber(line.description))
      problems.push({ index, field: 'description', problem: 'text.cardNumber' });
    amounts += line.amount;
    taxes += line.tax;
  });
  if (problems.length > 0) return { lines: problems };
  if (amounts !== total.amount || taxes !== total.tax)
    return { problem: 'transactions.split.total', lines: [] };
  return { lines: [] };
}

/**
 * `count` equal lines of `amount` and `tax` (what a screen offers as a start), in minor units: each the
 * quotient, and the remainder — what does not divide evenly — one minor unit on each of the first lines
 * (DESIGN §7: "a split's remainder goes to a stated line, never lost"), so the lines total exactly and no
 * line's tax exceeds its amount when the transaction's does not.
 */
export function splitEvenly(amount: bigint, tax: bigint, count: number): SplitLine[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError('count must be a whole number from 1');
  const n = BigInt(count);
  const share = (value: bigint, i: number) => {
    const magnitude = abs(value);
    const part = magnitude / n + (BigInt(i) < magnitude % n ? 1n : 0n);
    return value < 0n ? -part : part;
  };
  return Array.from({ length: count }, (_, i) => ({
    amount: share(amount, i),
    tax: share(tax, i),
    description: '',
  }));
}

/**
 * Whether a transaction's purchase details (its split, its coding) may change, or why not (seed 001 §4):
 * "locked transactions cannot have purchase details edited; exported transactions cannot be edited".
 */
export function checkPurchaseDetailsEdit(status: TransactionStatus, exported: boolean): string | undefined {
  if (exported) return 'transactions.edit.exported';
  if (status === 'Locked') return 'transactions.edit.locked';
  return undefined;
}
