import type {
  AccountingCode,
  AccountingCodeList,
  AccountingCodePatch,
  AccountingValue,
  AccountingValueList,
  AccountingValuePatch,
  NewAccountingCodeBody,
  NewAccountingValueBody,
} from '@cardportal/domain';
import { requestJson, requestVoid, withQuery } from './client.ts';

/** `/app/api/org/companies/:number/accounting-codes` (issue 16, docs/accounting.md). */
const codes = (number: string) => `/app/api/org/companies/${encodeURIComponent(number)}/accounting-codes`;
const code = (number: string, id: number | string) => `${codes(number)}/${encodeURIComponent(String(id))}`;

/** `GET .../accounting-codes`: the company's codes in ledger order. */
export function listAccountingCodes(number: string, signal?: AbortSignal): Promise<AccountingCodeList> {
  return requestJson<AccountingCodeList>(codes(number), { signal });
}

/** `POST .../accounting-codes` → 201 */
export function createAccountingCode(number: string, body: NewAccountingCodeBody): Promise<AccountingCode> {
  return requestJson<AccountingCode>(codes(number), { method: 'POST', json: body });
}

/** `PATCH .../accounting-codes/:id` */
export function updateAccountingCode(
  number: string,
  id: number,
  patch: AccountingCodePatch,
): Promise<AccountingCode> {
  return requestJson<AccountingCode>(code(number, id), { method: 'PATCH', json: patch });
}

/** `DELETE .../accounting-codes/:id` → 204 */
export function deleteAccountingCode(number: string, id: number): Promise<void> {
  return requestVoid(code(number, id), { method: 'DELETE' });
}

export interface ValueSearch {
  q?: string | undefined;
  status?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/** `GET .../accounting-codes/:id/values?q=&status=&after=|before=` */
export function listAccountingValues(
  number: string,
  id: string,
  params: ValueSearch,
  signal?: AbortSignal,
): Promise<AccountingValueList> {
  return requestJson<AccountingValueList>(withQuery(`${code(number, id)}/values`, params), { signal });
}

/** `POST .../accounting-codes/:id/values` → 201 */
export function createAccountingValue(
  number: string,
  id: string,
  body: NewAccountingValueBody,
): Promise<AccountingValue> {
  return requestJson<AccountingValue>(`${code(number, id)}/values`, { method: 'POST', json: body });
}

/** `PATCH .../accounting-codes/:id/values/:valueId` */
export function updateAccountingValue(
  number: string,
  id: string,
  valueId: number,
  patch: AccountingValuePatch,
): Promise<AccountingValue> {
  return requestJson<AccountingValue>(`${code(number, id)}/values/${valueId}`, {
    method: 'PATCH',
    json: patch,
  });
}

/** `DELETE .../accounting-codes/:id/values/:valueId` → 204 */
export function deleteAccountingValue(number: string, id: string, valueId: number): Promise<void> {
  return requestVoid(`${code(number, id)}/values/${valueId}`, { method: 'DELETE' });
}
