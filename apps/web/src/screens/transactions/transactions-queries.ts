import type { TransactionStep } from '@cardportal/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  getSpend,
  getTransaction,
  importTransactionFile,
  searchTransactions,
  type TransactionSearch,
  takeTransactionStep,
} from '../../api/transactions.ts';

/** Transactions' query keys: everything under `['transactions']`. */
export const transactionKeys = {
  all: ['transactions'] as const,
  search: (params: TransactionSearch) => ['transactions', 'search', params] as const,
  one: (id: string) => ['transactions', 'one', id] as const,
  spend: (currency: string | undefined) => ['transactions', 'spend', currency ?? ''] as const,
};

export const transactionSearchQuery = (params: TransactionSearch) =>
  queryOptions({
    queryKey: transactionKeys.search(params),
    queryFn: ({ signal }) => searchTransactions(params, signal),
  });

export const transactionQuery = (id: string) =>
  queryOptions({ queryKey: transactionKeys.one(id), queryFn: ({ signal }) => getTransaction(id, signal) });

export const spendQuery = (currency: string | undefined) =>
  queryOptions({
    queryKey: transactionKeys.spend(currency),
    queryFn: ({ signal }) => getSpend(currency, signal),
  });

/** A step of the transaction's life: the answer is the transaction as it now is; lists and pictures are read again. */
export function useTransactionStep(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (step: TransactionStep) => takeTransactionStep(id, step),
    onSuccess: (answer) => {
      client.setQueryData(transactionKeys.one(id), answer);
      return client.invalidateQueries({
        queryKey: transactionKeys.all,
        predicate: (q) => JSON.stringify(q.queryKey) !== JSON.stringify(transactionKeys.one(id)),
      });
    },
  });
}

/** An uploaded transaction file: when taken, every transaction list and picture is read again. */
export function useImportTransactions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, issuer }: { file: File; issuer: string | undefined }) =>
      importTransactionFile(file, issuer),
    onSuccess: () => client.invalidateQueries({ queryKey: transactionKeys.all }),
  });
}
