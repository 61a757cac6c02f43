import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  transactionAllocations,
  transactionDisputes,
  transactionSplits,
  transactions,
  users,
} from '../../db/schema.ts';

/**
 * What changes a transaction after its import (docs/transactions.md): its split lines, its dispute, and
 * the issuer's dispute reasons. The caller has found the transaction in its scope (findTransaction).
 */

export const splitLinesOf = (db: Executor, transactionId: number) =>
  db
    .select({
      line: transactionSplits.line,
      amount: transactionSplits.amount,
      tax: transactionSplits.tax,
      description: transactionSplits.description,
    })
    .from(transactionSplits)
    .where(eq(transactionSplits.transactionId, transactionId))
    .orderBy(asc(transactionSplits.line));

/** Replaces a transaction's split with `lines` (none: unsplit) and sets its count on the transaction. */
export async function replaceSplit(
  db: Executor,
  transactionId: number,
  lines: readonly { amount: bigint; tax: bigint; description: string }[],
): Promise<void> {
  await db.delete(transactionSplits).where(eq(transactionSplits.transactionId, transactionId));
  // The allocation divided the lines that are going: it goes with them (docs/accounting.md).
  await db.delete(transactionAllocations).where(eq(transactionAllocations.transactionId, transactionId));
  if (lines.length > 0)
    await db
      .insert(transactionSplits)
      .values(lines.map((line, i) => ({ transactionId, line: i + 1, ...line })));
  await db
    .update(transactions)
    .set({ splitLines: lines.length, updatedAt: sql`now()` })
    .where(eq(transactions.id, transactionId));
}

export async function disputeOf(db: Executor, transactionId: number) {
  const [row] = await db
    .select({
      status: transactionDisputes.status,
      reasonCode: transactionDisputes.reasonCode,
      reasonDescription: transactionDisputes.reasonDescription,
      amount: transactionDisputes.amount,
      explanation: transactionDisputes.explanation,
      submittedAt: transactionDisputes.submittedAt,
      submittedBy: users.displayUserId,
    })
    .from(transactionDisputes)
    .leftJoin(users, eq(users.id, transactionDisputes.byUserPk))
    .where(eq(transactionDisputes.transactionId, transactionId))
    .limit(1);
  return row;
}

/**
 * Files a dispute: false when one was filed already (the unique key decides, so two at once cannot both
 * be written). Marks the transaction disputed in the same statement's transaction.
 */
export async function insertDispute(
  db: Executor,
  values: {
    transactionId: number;
    reasonCode: string;
    reasonDescription: string;
    amount: bigint;
    explanation: string;
    byUserPk: number;
  },
): Promise<boolean> {
  const inserted = await db
    .insert(transactionDisputes)
    .values(values)
    .onConflictDoNothing({ target: transactionDisputes.transactionId })
    .returning({ id: transactionDisputes.id });
  if (inserted.length === 0) return false;
  await db
    .update(transactions)
    .set({ disputedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(transactions.id, values.transactionId));
  return true;
}

/**
 * Who hears of a dispute: the company's active program administrators (type C) with an e-mail address,
 * in their own language and co-brand.
 */
export function companyAdministrators(db: Executor, companyId: number) {
  return db
    .select({
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      displayUserId: users.displayUserId,
      cobrand: users.cobrand,
      locale: users.locale,
    })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        eq(users.userType, 'C'),
        eq(users.status, 'Active'),
        sql`${users.email} <> ''`,
      ),
    )
    .orderBy(asc(users.id))
    .limit(20);
}
