import type {
  SpendSummary,
  TransactionDetail,
  TransactionImportResult,
  TransactionList,
  TransactionStep,
} from '@cardportal/domain';
import { requestJson, uploadBytes, withQuery } from './client.ts';

/** The Transaction Summary's filters and position, as the API takes them (docs/transactions.md). */
export interface TransactionSearch {
  from?: string | undefined;
  to?: string | undefined;
  account?: string | undefined;
  status?: string | undefined;
  currency?: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
  mcc?: string | undefined;
  q?: string | undefined;
  order?: string | undefined;
  page?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/** `GET /app/api/transactions?…` */
export function searchTransactions(
  params: TransactionSearch,
  signal?: AbortSignal,
): Promise<TransactionList> {
  return requestJson<TransactionList>(withQuery('/app/api/transactions', params), { signal });
}

/** `GET /app/api/transactions/:id` */
export function getTransaction(id: string, signal?: AbortSignal): Promise<TransactionDetail> {
  return requestJson<TransactionDetail>(`/app/api/transactions/${encodeURIComponent(id)}`, { signal });
}

/** `GET /app/api/transactions/spend?currency=` */
export function getSpend(currency: string | undefined, signal?: AbortSignal): Promise<SpendSummary> {
  return requestJson<SpendSummary>(withQuery('/app/api/transactions/spend', { currency }), { signal });
}

/** `POST /app/api/transactions/:id/{review,approve,lock}` */
export function takeTransactionStep(id: string, step: TransactionStep): Promise<TransactionDetail> {
  return requestJson<TransactionDetail>(`/app/api/transactions/${encodeURIComponent(id)}/${step}`, {
    method: 'POST',
  });
}

/** `POST /app/api/transactions/import?name=&issuer=`: the file's bytes as they are (the server reads the content). */
export async function importTransactionFile(file: Blob & { name: string }, issuer: string | undefined) {
  const bytes = await file.arrayBuffer();
  return uploadBytes<TransactionImportResult>(
    withQuery('/app/api/transactions/import', { name: file.name, issuer }),
    bytes,
    'application/octet-stream',
  );
}
