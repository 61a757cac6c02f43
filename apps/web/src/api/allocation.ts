import type {
  AllocationBody,
  MassAllocation,
  MassAllocationBody,
  MassAllocationList,
  OfferedValues,
  TransactionAllocation,
  TransactionCustomFields,
} from '@cardportal/domain';
import { requestJson, withQuery } from './client.ts';

/** A transaction's cost allocation and mass allocation (issue 16 item 3, docs/accounting.md). */

const one = (id: string) => `/app/api/transactions/${encodeURIComponent(id)}/allocation`;

/** `GET /app/api/transactions/:id/allocation` */
export function getAllocation(id: string, signal?: AbortSignal): Promise<TransactionAllocation> {
  return requestJson<TransactionAllocation>(one(id), { signal });
}

/** `PUT /app/api/transactions/:id/allocation` */
export function setAllocation(id: string, body: AllocationBody): Promise<TransactionAllocation> {
  return requestJson<TransactionAllocation>(one(id), { method: 'PUT', json: body });
}

/** `GET /app/api/transactions/:id/allocation/values?code=&q=&parent=` */
export function getOfferedValues(
  id: string,
  params: { code: number; q?: string | undefined; parent?: string | undefined },
  signal?: AbortSignal,
): Promise<OfferedValues> {
  return requestJson<OfferedValues>(withQuery(`${one(id)}/values`, params), { signal });
}

/** `GET /app/api/transactions/mass-allocations?company=` */
export function listMassAllocations(company: string, signal?: AbortSignal): Promise<MassAllocationList> {
  return requestJson<MassAllocationList>(withQuery('/app/api/transactions/mass-allocations', { company }), {
    signal,
  });
}

/** `POST /app/api/transactions/mass-allocations` → 201 */
export function massAllocate(body: MassAllocationBody): Promise<MassAllocation> {
  return requestJson<MassAllocation>('/app/api/transactions/mass-allocations', {
    method: 'POST',
    json: body,
  });
}

/** `POST /app/api/transactions/mass-allocations/:id/undo` */
export function undoMassAllocation(id: number): Promise<MassAllocation> {
  return requestJson<MassAllocation>(`/app/api/transactions/mass-allocations/${id}/undo`, { method: 'POST' });
}

/** `GET /app/api/transactions/:id/custom-fields` */
export function getCustomValues(id: string, signal?: AbortSignal): Promise<TransactionCustomFields> {
  return requestJson<TransactionCustomFields>(
    `/app/api/transactions/${encodeURIComponent(id)}/custom-fields`,
    {
      signal,
    },
  );
}

/** `PUT /app/api/transactions/:id/custom-fields` */
export function setCustomValues(
  id: string,
  values: Record<string, string>,
): Promise<TransactionCustomFields> {
  return requestJson<TransactionCustomFields>(
    `/app/api/transactions/${encodeURIComponent(id)}/custom-fields`,
    {
      method: 'PUT',
      json: { values },
    },
  );
}
