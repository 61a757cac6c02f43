import { containsCardNumber } from './card-numbers.ts';
import { normaliseIssuerCode } from './issuer-codes.ts';

/**
 * Disputes (seed 001 §4, §5, §9; issue 15 item 6): the dispute form a cardholder or an administrator files
 * on a transaction, with a reason of its issuer's dispute reasons (issuer-codes.ts), which cannot be
 * changed after submission. Every problem is a message key (`validation.{key}`).
 */

export const DISPUTE_LIMITS = {
  /** Seed 001 §5: "description at most 1024". */
  explanationMaxLength: 1024,
} as const;

/** A dispute's status: filed with the issuer, then settled by it. */
export const DISPUTE_STATUSES = ['Submitted'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Checks a dispute form: a reason, the amount disputed (minor units, above zero and not above the
 * transaction's amount, whose sign it ignores: a refund is disputed by its size), and the explanation
 * (1–1024 characters). Field → message key.
 */
export function checkDispute(
  form: { reason: string; amount: bigint | undefined; explanation: string },
  transactionAmount: bigint,
): { reason?: string; amount?: string; explanation?: string } {
  const problems: { reason?: string; amount?: string; explanation?: string } = {};
  if (normaliseIssuerCode(form.reason) === '') problems.reason = 'dispute.reason.required';
  const limit = transactionAmount < 0n ? -transactionAmount : transactionAmount;
  if (form.amount === undefined) problems.amount = 'money.amount.format';
  else if (form.amount <= 0n) problems.amount = 'dispute.amount.positive';
  else if (form.amount > limit) problems.amount = 'dispute.amount.exceedsTransaction';
  const explanation = form.explanation.trim();
  if (explanation === '') problems.explanation = 'dispute.explanation.required';
  else if ([...explanation].length > DISPUTE_LIMITS.explanationMaxLength)
    problems.explanation = 'dispute.explanation.tooLong';
  else if (CONTROL.test(explanation.replace(/[\n\r\t]/g, ' ')))
    problems.explanation = 'dispute.explanation.format';
  else if (containsCardNumber(explanation)) problems.explanation = 'text.cardNumber';
  return problems;
}
