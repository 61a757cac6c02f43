import type {
  DisputeBody,
  IssuerCodeList,
  SpendSummary,
  SplitBody,
  TransactionDetail,
  TransactionExport,
  TransactionExportBody,
  TransactionExportList,
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

/** `POST /app/api/transactions/:id/split`: 2–100 lines in major units; the answer is the transaction. */
export function splitTransaction(id: string, body: SplitBody): Promise<TransactionDetail> {
  return requestJson<TransactionDetail>(`/app/api/transactions/${encodeURIComponent(id)}/split`, {
    method: 'POST',
    json: body,
  });
}

/** `POST /app/api/transactions/:id/unsplit` */
export function unsplitTransaction(id: string): Promise<TransactionDetail> {
  return requestJson<TransactionDetail>(`/app/api/transactions/${encodeURIComponent(id)}/unsplit`, {
    method: 'POST',
  });
}

/** `GET /app/api/transactions/:id/dispute-reasons`: the card issuer's reasons, for the dispute form. */
export function getDisputeReasonsFor(id: string, signal?: AbortSignal): Promise<IssuerCodeList> {
  return requestJson<IssuerCodeList>(`/app/api/transactions/${encodeURIComponent(id)}/dispute-reasons`, {
    signal,
  });
}

/** `POST /app/api/transactions/:id/dispute`: filed once, never changed. */
export function disputeTransaction(id: string, body: DisputeBody): Promise<TransactionDetail> {
  return requestJson<TransactionDetail>(`/app/api/transactions/${encodeURIComponent(id)}/dispute`, {
    method: 'POST',
    json: body,
  });
}

/** `POST /app/api/transactions/exports` */
export function createTransactionExport(body: TransactionExportBody): Promise<TransactionExport> {
  return requestJson<TransactionExport>('/app/api/transactions/exports', { method: 'POST', json: body });
}

/** `GET /app/api/transactions/exports?after=&before=` */
export function listTransactionExports(
  position: { after?: string | undefined; before?: string | undefined },
  signal?: AbortSignal,
): Promise<TransactionExportList> {
  return requestJson<TransactionExportList>(withQuery('/app/api/transactions/exports', position), { signal });
}

/** The URL of an export's file (a download: the browser saves the attachment). */
export const transactionExportFileUrl = (id: number) => `/app/api/transactions/exports/${id}/file`;
