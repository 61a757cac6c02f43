import type {
  ExpenseLineBody,
  ExpenseReportDetail,
  ExpenseReportList,
  ExpenseTransactionList,
  NewExpenseReportBody,
  RerouteBody,
} from '@cardportal/domain';
import { requestJson, requestVoid } from './client.ts';

/** Expense reports (issue 17 items 2–4, docs/expenses.md). */
const one = (id: number) => `/app/api/expense-reports/${id}`;

export interface ListPosition {
  after?: string | undefined;
  before?: string | undefined;
  status?: string | undefined;
}

const query = (p: ListPosition) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(p)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
};

/** `GET /app/api/my/expense-reports` */
export const myReports = (p: ListPosition, signal?: AbortSignal) =>
  requestJson<ExpenseReportList>(`/app/api/my/expense-reports${query(p)}`, { signal });

/** `POST /app/api/my/expense-reports` */
export const createReport = (body: NewExpenseReportBody) =>
  requestJson<ExpenseReportDetail>('/app/api/my/expense-reports', { method: 'POST', json: body });

/** `GET /app/api/my/expense-transactions` */
export const openTransactions = (p: ListPosition, signal?: AbortSignal) =>
  requestJson<ExpenseTransactionList>(`/app/api/my/expense-transactions${query(p)}`, { signal });

/** `GET /app/api/expense-approvals` */
export const approvalQueue = (p: ListPosition, signal?: AbortSignal) =>
  requestJson<ExpenseReportList>(`/app/api/expense-approvals${query(p)}`, { signal });

/** `GET /app/api/org/companies/:number/expense-reports` */
export const companyReports = (number: string, p: ListPosition, signal?: AbortSignal) =>
  requestJson<ExpenseReportList>(
    `/app/api/org/companies/${encodeURIComponent(number)}/expense-reports${query(p)}`,
    { signal },
  );

/** `GET /app/api/expense-reports/:id` */
export const getReport = (id: number, signal?: AbortSignal) =>
  requestJson<ExpenseReportDetail>(one(id), { signal });

/** `PUT /app/api/expense-reports/:id` */
export const renameReport = (id: number, name: string) =>
  requestJson<ExpenseReportDetail>(one(id), { method: 'PUT', json: { name } });

/** `DELETE /app/api/expense-reports/:id` → 204 */
export const deleteReport = (id: number) => requestVoid(one(id), { method: 'DELETE' });

/** `POST .../lines` or `PUT .../lines/:line` */
export const saveLine = (id: number, line: number | undefined, body: ExpenseLineBody) =>
  line === undefined
    ? requestJson<ExpenseReportDetail>(`${one(id)}/lines`, { method: 'POST', json: body })
    : requestJson<ExpenseReportDetail>(`${one(id)}/lines/${line}`, { method: 'PUT', json: body });

/** `DELETE .../lines/:line` */
export const removeLine = (id: number, line: number) =>
  requestJson<ExpenseReportDetail>(`${one(id)}/lines/${line}`, { method: 'DELETE' });

/** `PUT .../lines/:line/receipt`: the file's bytes (JPEG, PNG or PDF, told by content) and its name. */
export async function attachReceipt(id: number, line: number, file: File): Promise<ExpenseReportDetail> {
  return requestJson<ExpenseReportDetail>(
    `${one(id)}/lines/${line}/receipt?name=${encodeURIComponent(file.name)}`,
    { method: 'PUT', bytes: { data: await file.arrayBuffer(), type: 'application/octet-stream' } },
  );
}

/** `GET .../lines/:line/receipt`: the receipt, inline (a link). */
export const receiptUrl = (id: number, line: number) => `${one(id)}/lines/${line}/receipt`;

/** `DELETE .../lines/:line/receipt` */
export const removeReceipt = (id: number, line: number) =>
  requestJson<ExpenseReportDetail>(`${one(id)}/lines/${line}/receipt`, { method: 'DELETE' });

/** `POST .../submit`, `.../approve` */
export const reportAction = (id: number, action: 'submit' | 'approve') =>
  requestJson<ExpenseReportDetail>(`${one(id)}/${action}`, { method: 'POST' });

/** `POST .../send-back` */
export const sendBack = (id: number, note: string) =>
  requestJson<ExpenseReportDetail>(`${one(id)}/send-back`, { method: 'POST', json: { note } });

/** `POST .../reroute` */
export const reroute = (id: number, body: RerouteBody) =>
  requestJson<ExpenseReportDetail>(`${one(id)}/reroute`, { method: 'POST', json: body });
