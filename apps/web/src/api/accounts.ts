import type {
  AccountBulkMove,
  AccountBulkResult,
  AccountDetail,
  AccountGroupList,
  AccountGroupSummary,
  AccountList,
  AccountStatus,
  CardholderDetail,
  CardholderList,
  CardholderPatch,
  MyCards,
  NewAccountBody,
  NewRealCardBody,
  RealCardDeleteResult,
  RealCardList,
  RealCardSummary,
} from '@cardportal/domain';
import { requestJson, requestVoid, type SortParams, withQuery } from './client.ts';

const company = (number: string) => `/app/api/org/companies/${encodeURIComponent(number)}`;

/** `GET .../cardholders?q=&status=&after=|before=` (q: a name of 2+ characters or the last four digits) */
export function searchCardholders(
  number: string,
  params: {
    q?: string | undefined;
    status?: string | undefined;
    after?: string | undefined;
    before?: string | undefined;
  } & SortParams,
  signal?: AbortSignal,
): Promise<CardholderList> {
  return requestJson<CardholderList>(withQuery(`${company(number)}/cardholders`, params), { signal });
}

/** `GET .../cardholders.csv`, `.../accounts.csv`, `.../real-cards.csv`: every match of the search as CSV (download links). */
export const listCsvUrl = (
  number: string,
  list: 'cardholders' | 'accounts' | 'real-cards',
  params: { q?: string | undefined; status?: string | undefined; group?: string | undefined } & SortParams,
): string => withQuery(`${company(number)}/${list}.csv`, params);

/** `GET .../cardholders/:id` */
export function getCardholder(number: string, id: string, signal?: AbortSignal): Promise<CardholderDetail> {
  return requestJson<CardholderDetail>(`${company(number)}/cardholders/${encodeURIComponent(id)}`, {
    signal,
  });
}

/** `PATCH .../cardholders/:id` */
export function updateCardholder(
  number: string,
  id: string,
  body: CardholderPatch,
): Promise<CardholderDetail> {
  return requestJson<CardholderDetail>(`${company(number)}/cardholders/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    json: body,
  });
}

/** `PUT .../cardholders/:id/status` */
export function setCardholderActive(number: string, id: string, active: boolean): Promise<CardholderDetail> {
  return requestJson<CardholderDetail>(`${company(number)}/cardholders/${encodeURIComponent(id)}/status`, {
    method: 'PUT',
    json: { active },
  });
}

/** `GET .../accounts?q=&group=&status=&after=|before=` */
export function searchAccounts(
  number: string,
  params: {
    q?: string | undefined;
    group?: string | undefined;
    status?: string | undefined;
    after?: string | undefined;
    before?: string | undefined;
  } & SortParams,
  signal?: AbortSignal,
): Promise<AccountList> {
  return requestJson<AccountList>(withQuery(`${company(number)}/accounts`, params), { signal });
}

/** `POST .../accounts/bulk-move`: the chosen accounts into one group; the answer says what became of each. */
export function bulkMoveAccounts(number: string, body: AccountBulkMove): Promise<AccountBulkResult> {
  return requestJson<AccountBulkResult>(`${company(number)}/accounts/bulk-move`, {
    method: 'POST',
    json: body,
  });
}

/** `GET .../accounts/:id` */
export function getAccount(number: string, id: string, signal?: AbortSignal): Promise<AccountDetail> {
  return requestJson<AccountDetail>(`${company(number)}/accounts/${encodeURIComponent(id)}`, { signal });
}

/** `PUT .../accounts/:id/status` */
export function setAccountStatus(
  number: string,
  id: string,
  change: { status: AccountStatus } | { statusCode: string },
): Promise<AccountDetail> {
  return requestJson<AccountDetail>(`${company(number)}/accounts/${encodeURIComponent(id)}/status`, {
    method: 'PUT',
    json: change,
  });
}

/** `POST .../accounts/:id/registration-unlock` → 204 (409 `registration.notLocked` when it is not locked) */
export function unlockAccountRegistration(number: string, id: string): Promise<void> {
  return requestVoid(`${company(number)}/accounts/${encodeURIComponent(id)}/registration-unlock`, {
    method: 'POST',
  });
}

/** `PUT .../cardholders/:id/reasons`: the cardholder's maintenance reason codes, replaced. */
export function setCardholderReasons(number: string, id: string, codes: string[]): Promise<CardholderDetail> {
  return requestJson<CardholderDetail>(`${company(number)}/cardholders/${encodeURIComponent(id)}/reasons`, {
    method: 'PUT',
    json: { codes },
  });
}

/** `PUT .../accounts/:id/group` */
export function moveAccount(number: string, id: string, groupId: number): Promise<AccountDetail> {
  return requestJson<AccountDetail>(`${company(number)}/accounts/${encodeURIComponent(id)}/group`, {
    method: 'PUT',
    json: { groupId },
  });
}

/** `GET .../account-groups` */
export function listAccountGroups(number: string, signal?: AbortSignal): Promise<AccountGroupList> {
  return requestJson<AccountGroupList>(`${company(number)}/account-groups`, { signal });
}

/** `POST .../account-groups` → 201 */
export function createAccountGroup(number: string, name: string): Promise<AccountGroupSummary> {
  return requestJson<AccountGroupSummary>(`${company(number)}/account-groups`, {
    method: 'POST',
    json: { name },
  });
}

/** `PATCH .../account-groups/:id` */
export function renameAccountGroup(number: string, id: number, name: string): Promise<AccountGroupSummary> {
  return requestJson<AccountGroupSummary>(`${company(number)}/account-groups/${id}`, {
    method: 'PATCH',
    json: { name },
  });
}

/** `PUT .../account-groups/:id/status` */
export function setAccountGroupActive(
  number: string,
  id: number,
  active: boolean,
): Promise<AccountGroupSummary> {
  return requestJson<AccountGroupSummary>(`${company(number)}/account-groups/${id}/status`, {
    method: 'PUT',
    json: { active },
  });
}

/** `GET /app/api/my/cards` */
export function getMyCards(signal?: AbortSignal): Promise<MyCards> {
  return requestJson<MyCards>('/app/api/my/cards', { signal });
}

/** `POST .../accounts`: a card account issued to a cardholder (the answer shows the number masked). */
export function issueAccount(number: string, body: NewAccountBody): Promise<AccountDetail> {
  return requestJson<AccountDetail>(`${company(number)}/accounts`, { method: 'POST', json: body });
}

const realCard = (number: string, id: number) => `${company(number)}/real-cards/${id}`;

/** `GET .../real-cards?q=&status=&after=|before=` (q: part of the alias, 2+ characters, or the last four) */
export function searchRealCards(
  number: string,
  params: {
    q?: string | undefined;
    status?: string | undefined;
    after?: string | undefined;
    before?: string | undefined;
  } & SortParams,
  signal?: AbortSignal,
): Promise<RealCardList> {
  return requestJson<RealCardList>(withQuery(`${company(number)}/real-cards`, params), { signal });
}

/** `POST .../real-cards` → 201: the card account issued and named (the answer shows it masked). */
export function createRealCard(number: string, body: NewRealCardBody): Promise<RealCardSummary> {
  return requestJson<RealCardSummary>(`${company(number)}/real-cards`, { method: 'POST', json: body });
}

/** `PATCH .../real-cards/:id` */
export function renameRealCard(number: string, id: number, alias: string): Promise<RealCardSummary> {
  return requestJson<RealCardSummary>(realCard(number, id), { method: 'PATCH', json: { alias } });
}

/** `PUT .../real-cards/:id/status` */
export function setRealCardActive(number: string, id: number, active: boolean): Promise<RealCardSummary> {
  return requestJson<RealCardSummary>(`${realCard(number, id)}/status`, { method: 'PUT', json: { active } });
}

/** `DELETE .../real-cards/:id`: deleted, or marked inactive when transactions refer to it. */
export function deleteRealCard(number: string, id: number): Promise<RealCardDeleteResult> {
  return requestJson<RealCardDeleteResult>(realCard(number, id), { method: 'DELETE' });
}
