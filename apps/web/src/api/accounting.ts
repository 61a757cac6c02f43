import type {
  AccountCoding,
  AccountCodingBody,
  AccountingCode,
  AccountingCodeList,
  AccountingCodePatch,
  AccountingScheme,
  AccountingSchemeBody,
  AccountingSchemeList,
  AccountingSubset,
  AccountingSubsetBody,
  AccountingSubsetList,
  AccountingValue,
  AccountingValueList,
  AccountingValuePatch,
  AccountingValueUploadResult,
  CustomField,
  CustomFieldBody,
  CustomFieldList,
  GroupScheme,
  GroupSchemeList,
  NewAccountingCodeBody,
  NewAccountingValueBody,
} from '@cardportal/domain';
import { requestJson, requestVoid, uploadBytes, withQuery } from './client.ts';

/** `/app/api/org/companies/:number/accounting-codes` (issue 16, docs/accounting.md). */
const company = (number: string) => `/app/api/org/companies/${encodeURIComponent(number)}`;
const codes = (number: string) => `${company(number)}/accounting-codes`;
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

/** `GET .../accounting-subsets` */
export function listAccountingSubsets(number: string, signal?: AbortSignal): Promise<AccountingSubsetList> {
  return requestJson<AccountingSubsetList>(`${company(number)}/accounting-subsets`, { signal });
}

/** `POST .../accounting-subsets` (no id) or `PUT .../accounting-subsets/:id` */
export function saveAccountingSubset(
  number: string,
  id: number | undefined,
  body: AccountingSubsetBody,
): Promise<AccountingSubset> {
  return id === undefined
    ? requestJson<AccountingSubset>(`${company(number)}/accounting-subsets`, { method: 'POST', json: body })
    : requestJson<AccountingSubset>(`${company(number)}/accounting-subsets/${id}`, {
        method: 'PUT',
        json: body,
      });
}

/** `DELETE .../accounting-subsets/:id` → 204 */
export function deleteAccountingSubset(number: string, id: number): Promise<void> {
  return requestVoid(`${company(number)}/accounting-subsets/${id}`, { method: 'DELETE' });
}

/** `GET .../accounting-schemes` */
export function listAccountingSchemes(number: string, signal?: AbortSignal): Promise<AccountingSchemeList> {
  return requestJson<AccountingSchemeList>(`${company(number)}/accounting-schemes`, { signal });
}

/** `POST .../accounting-schemes` (no id) or `PUT .../accounting-schemes/:id` */
export function saveAccountingScheme(
  number: string,
  id: number | undefined,
  body: AccountingSchemeBody,
): Promise<AccountingScheme> {
  return id === undefined
    ? requestJson<AccountingScheme>(`${company(number)}/accounting-schemes`, { method: 'POST', json: body })
    : requestJson<AccountingScheme>(`${company(number)}/accounting-schemes/${id}`, {
        method: 'PUT',
        json: body,
      });
}

/** `DELETE .../accounting-schemes/:id` → 204 */
export function deleteAccountingScheme(number: string, id: number): Promise<void> {
  return requestVoid(`${company(number)}/accounting-schemes/${id}`, { method: 'DELETE' });
}

/** `GET .../accounting-groups`: each account group's scheme. */
export function listGroupSchemes(number: string, signal?: AbortSignal): Promise<GroupSchemeList> {
  return requestJson<GroupSchemeList>(`${company(number)}/accounting-groups`, { signal });
}

/** `PUT .../accounting-groups/:id` */
export function setGroupScheme(
  number: string,
  groupId: number,
  schemeId: number | null,
): Promise<GroupScheme> {
  return requestJson<GroupScheme>(`${company(number)}/accounting-groups/${groupId}`, {
    method: 'PUT',
    json: { schemeId },
  });
}

/** `GET .../accounts/:id/coding` */
export function getAccountCoding(
  number: string,
  accountId: string,
  signal?: AbortSignal,
): Promise<AccountCoding> {
  return requestJson<AccountCoding>(`${company(number)}/accounts/${encodeURIComponent(accountId)}/coding`, {
    signal,
  });
}

/** `PUT .../accounts/:id/coding` */
export function setAccountCoding(
  number: string,
  accountId: string,
  body: AccountCodingBody,
): Promise<AccountCoding> {
  return requestJson<AccountCoding>(`${company(number)}/accounts/${encodeURIComponent(accountId)}/coding`, {
    method: 'PUT',
    json: body,
  });
}

/** `GET .../accounting-codes/:id/values.{csv|xlsx}`: every value, in the upload's columns (a download link). */
export const valuesFileUrl = (number: string, id: string, format: 'csv' | 'xlsx') =>
  `${code(number, id)}/values.${format}`;

/** `POST .../accounting-codes/:id/values/upload`: the file's bytes (CSV or .xlsx, told by content). */
export async function uploadValuesFile(
  number: string,
  id: string,
  file: Blob,
): Promise<AccountingValueUploadResult> {
  return uploadBytes<AccountingValueUploadResult>(
    `${code(number, id)}/values/upload`,
    await file.arrayBuffer(),
    'application/octet-stream',
  );
}

/** `GET .../custom-fields` */
export function listCustomFields(number: string, signal?: AbortSignal): Promise<CustomFieldList> {
  return requestJson<CustomFieldList>(`${company(number)}/custom-fields`, { signal });
}

/** `POST .../custom-fields` (no id) or `PUT .../custom-fields/:id` */
export function saveCustomField(
  number: string,
  id: number | undefined,
  body: CustomFieldBody,
): Promise<CustomField> {
  return id === undefined
    ? requestJson<CustomField>(`${company(number)}/custom-fields`, { method: 'POST', json: body })
    : requestJson<CustomField>(`${company(number)}/custom-fields/${id}`, { method: 'PUT', json: body });
}

/** `DELETE .../custom-fields/:id` → 204 */
export function deleteCustomField(number: string, id: number): Promise<void> {
  return requestVoid(`${company(number)}/custom-fields/${id}`, { method: 'DELETE' });
}
