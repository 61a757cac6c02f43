import type {
  ApprovalProfile,
  ApprovalProfileBody,
  ApprovalThreshold,
  ApprovalThresholdBody,
  ExpensePolicy,
  ExpensePolicyBody,
  ExpenseSettings,
  ExpenseType,
  ExpenseTypeBody,
  MileageRate,
  MileageRateBody,
  TaxRate,
  TaxRateBody,
} from '@cardportal/domain';
import { requestJson, requestVoid } from './client.ts';

/** `/app/api/org/companies/:number/expense-settings` (issue 17 item 1, docs/expenses.md). */
const settings = (number: string) => `/app/api/org/companies/${encodeURIComponent(number)}/expense-settings`;

/** The parts of the configuration that are lists of records, by their path and body. */
interface Parts {
  types: [ExpenseTypeBody, ExpenseType];
  'mileage-rates': [MileageRateBody, MileageRate];
  'tax-rates': [TaxRateBody, TaxRate];
  'approval-profiles': [ApprovalProfileBody, ApprovalProfile];
}
export type ExpensePart = keyof Parts;

/** `GET .../expense-settings` */
export function getExpenseSettings(number: string, signal?: AbortSignal): Promise<ExpenseSettings> {
  return requestJson<ExpenseSettings>(settings(number), { signal });
}

/** `POST .../expense-settings/{part}` (no id) or `PUT .../expense-settings/{part}/:id` */
export function saveExpenseRecord<P extends ExpensePart>(
  number: string,
  part: P,
  id: number | undefined,
  body: Parts[P][0],
): Promise<Parts[P][1]> {
  return id === undefined
    ? requestJson<Parts[P][1]>(`${settings(number)}/${part}`, { method: 'POST', json: body })
    : requestJson<Parts[P][1]>(`${settings(number)}/${part}/${id}`, { method: 'PUT', json: body });
}

/** `DELETE .../expense-settings/{part}/:id` → 204 (thresholds too) */
export function deleteExpenseRecord(
  number: string,
  part: ExpensePart | 'approval-thresholds',
  id: number,
): Promise<void> {
  return requestVoid(`${settings(number)}/${part}/${id}`, { method: 'DELETE' });
}

/** `PUT .../expense-settings/policy` */
export function saveExpensePolicy(number: string, body: ExpensePolicyBody): Promise<ExpensePolicy> {
  return requestJson<ExpensePolicy>(`${settings(number)}/policy`, { method: 'PUT', json: body });
}

/** `POST .../expense-settings/approval-thresholds` */
export function createApprovalThreshold(
  number: string,
  body: ApprovalThresholdBody,
): Promise<ApprovalThreshold> {
  return requestJson<ApprovalThreshold>(`${settings(number)}/approval-thresholds`, {
    method: 'POST',
    json: body,
  });
}
