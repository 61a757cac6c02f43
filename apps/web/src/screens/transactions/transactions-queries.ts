import { queryOptions } from '@tanstack/react-query';
import {
  getSpend,
  getTransaction,
  searchTransactions,
  type TransactionSearch,
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
