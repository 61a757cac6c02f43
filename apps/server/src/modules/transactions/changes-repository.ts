import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  disputeReasons,
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

export const reasonsOf = (db: Executor, issuerId: number) =>
  db
    .select({ code: disputeReasons.code, description: disputeReasons.description })
    .from(disputeReasons)
    .where(eq(disputeReasons.issuerId, issuerId))
    .orderBy(asc(disputeReasons.code));

export async function findReason(db: Executor, issuerId: number, code: string) {
  const [row] = await db
    .select({ id: disputeReasons.id, code: disputeReasons.code, description: disputeReasons.description })
    .from(disputeReasons)
    .where(and(eq(disputeReasons.issuerId, issuerId), eq(disputeReasons.code, code)))
    .limit(1);
  return row;
}

export async function countReasons(db: Executor, issuerId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(disputeReasons)
    .where(eq(disputeReasons.issuerId, issuerId));
  return Number(row?.n ?? 0);
}

/** Inserts a reason; false when the code exists already. */
export async function insertReason(
  db: Executor,
  values: { issuerId: number; code: string; description: string },
): Promise<boolean> {
  const rows = await db
    .insert(disputeReasons)
    .values(values)
    .onConflictDoNothing({ target: [disputeReasons.issuerId, disputeReasons.code] })
    .returning({ id: disputeReasons.id });
  return rows.length > 0;
}

export const updateReason = (db: Executor, id: number, description: string) =>
  db.update(disputeReasons).set({ description, updatedAt: sql`now()` }).where(eq(disputeReasons.id, id));

export const deleteReason = (db: Executor, id: number) =>
  db.delete(disputeReasons).where(eq(disputeReasons.id, id));

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
