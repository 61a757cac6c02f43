import { type CallerScope, checkPurchaseDetailsEdit, type TransactionStatus } from '@cardportal/domain';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { findTransaction } from './repository.ts';

export type FoundTransaction = NonNullable<Awaited<ReturnType<typeof findTransaction>>>;

/**
 * The transaction a path names, inside the caller's scope (locked for update on request): 404
 * `transactions.notFound` for an id that is not a number, unknown, or outside the scope — never which.
 * Every transaction service starts here (its life, split, dispute, coding, custom fields).
 */
export async function transactionInScope(
  db: Executor,
  caller: CallerScope,
  idText: string,
  lock = false,
): Promise<FoundTransaction> {
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : undefined;
  const row = id === undefined ? undefined : await findTransaction(db, caller, id, lock);
  if (!row) throw new AppError('notFound', 'transactions.notFound', { message: 'No such transaction' });
  return row;
}

/** Why a transaction's purchase details (split, coding, custom fields) may not change now, or undefined (seed 001 §4). */
export const editBlocked = (row: Pick<FoundTransaction, 'status' | 'exportedAt'>): string | undefined =>
  checkPurchaseDetailsEdit(row.status as TransactionStatus, row.exportedAt !== null);

/** Refuses a change to a locked or exported transaction's purchase details (409 with the catalogue's words). */
export function refuseIfClosed(row: Pick<FoundTransaction, 'status' | 'exportedAt'>): void {
  const blocked = editBlocked(row);
  if (blocked)
    throw new AppError('conflict', blocked, {
      message:
        blocked === 'transactions.edit.exported'
          ? 'Exported transactions cannot be edited'
          : 'Locked transactions cannot have purchase details edited',
    });
}
