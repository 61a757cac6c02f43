import type {
  AllocationBody,
  DisputeBody,
  SplitBody,
  TransactionDetail,
  TransactionExportBody,
  TransactionStep,
} from '@cardportal/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getAllocation, getOfferedValues, setAllocation } from '../../api/allocation.ts';
import {
  createTransactionExport,
  disputeTransaction,
  getDisputeReasonsFor,
  getSpend,
  getTransaction,
  importTransactionFile,
  listTransactionExports,
  searchTransactions,
  splitTransaction,
  type TransactionSearch,
  takeTransactionStep,
  unsplitTransaction,
} from '../../api/transactions.ts';

/** Transactions' query keys: everything under `['transactions']`. */
export const transactionKeys = {
  all: ['transactions'] as const,
  search: (params: TransactionSearch) => ['transactions', 'search', params] as const,
  one: (id: string) => ['transactions', 'one', id] as const,
  spend: (currency: string | undefined) => ['transactions', 'spend', currency ?? ''] as const,
  allocation: (id: string) => ['transactions', 'allocation', id] as const,
};

/** A transaction's coding (issue 16 item 3): under `['transactions']`, so any change of it is read again. */
export const allocationQuery = (id: string) =>
  queryOptions({
    queryKey: transactionKeys.allocation(id),
    queryFn: ({ signal }) => getAllocation(id, signal),
  });

/** The values a scheme line offers this transaction's coder, for what is typed. */
export const offeredValuesQuery = (
  id: string,
  params: { code: number; q?: string | undefined; parent?: string | undefined },
) =>
  queryOptions({
    queryKey: [...transactionKeys.allocation(id), 'values', params] as const,
    queryFn: ({ signal }) => getOfferedValues(id, params, signal),
    staleTime: 30_000,
  });

/** Saves one part's allocation: the answer is the allocation as it now is. */
export function useSetAllocation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AllocationBody) => setAllocation(id, body),
    onSuccess: (answer) => client.setQueryData(transactionKeys.allocation(id), answer),
  });
}

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
  return useTransactionChange(id, (step: TransactionStep) => takeTransactionStep(id, step));
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

/** A change of one transaction (split, unsplit, dispute): its answer is the transaction as it now is. */
function useTransactionChange<V>(id: string, change: (value: V) => Promise<TransactionDetail>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (answer) => {
      client.setQueryData(transactionKeys.one(id), answer);
      return client.invalidateQueries({
        queryKey: transactionKeys.all,
        predicate: (q) => JSON.stringify(q.queryKey) !== JSON.stringify(transactionKeys.one(id)),
      });
    },
  });
}

export const useSplit = (id: string) =>
  useTransactionChange(id, (body: SplitBody) => splitTransaction(id, body));
export const useUnsplit = (id: string) => useTransactionChange(id, (_: undefined) => unsplitTransaction(id));
export const useDispute = (id: string) =>
  useTransactionChange(id, (body: DisputeBody) => disputeTransaction(id, body));

export const disputeReasonsForQuery = (id: string) =>
  queryOptions({
    queryKey: ['transactions', 'dispute-reasons', id] as const,
    queryFn: ({ signal }) => getDisputeReasonsFor(id, signal),
  });

export const exportsQuery = (position: { after?: string | undefined; before?: string | undefined }) =>
  queryOptions({
    queryKey: ['transactions', 'exports', position.after ?? '', position.before ?? ''] as const,
    queryFn: ({ signal }) => listTransactionExports(position, signal),
  });

/** A new export: the list of exports and every transaction list (now marked exported) are read again. */
export function useCreateExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TransactionExportBody) => createTransactionExport(body),
    onSuccess: () => client.invalidateQueries({ queryKey: transactionKeys.all }),
  });
}
