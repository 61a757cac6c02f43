import type {
  CompanyGroupList,
  CompanyGroupSummary,
  CompanyOptionsBody,
  IssuerCodeBody,
  IssuerCodeList,
  IssuerCodeListName,
  IssuerCodePatch,
  IssuerDetail,
  IssuerGroupList,
  IssuerGroupSummary,
  IssuerList,
  IssuerOptionsBody,
  IssuerPatch,
  NewIssuerBody,
  ProgramOptionsView,
} from '@cardportal/domain';
import { requestJson, requestVoid, type SortParams, setSort, withQuery } from './client.ts';

const BASE = '/app/api/org/issuers';
const one = (number: string) => `${BASE}/${encodeURIComponent(number)}`;
const companyGroups = (number: string) => `${one(number)}/company-groups`;
const GROUPS = '/app/api/org/issuer-groups';

/** `GET /app/api/org/issuers?q=&page=` */
export function searchIssuers(
  params: { q?: string | undefined; page?: number | undefined } & SortParams,
  signal?: AbortSignal,
): Promise<IssuerList> {
  const query = new URLSearchParams();
  if (params.q) query.set('q', params.q);
  setSort(query, params);
  if (params.page && params.page > 1) query.set('page', String(params.page));
  return requestJson<IssuerList>(`${BASE}?${query}`, { signal });
}

/** `GET /app/api/org/issuers.csv?q=&sort=&dir=`: every match of the search as CSV (a download link). */
export const issuersCsvUrl = (params: { q?: string | undefined } & SortParams): string =>
  withQuery(`${BASE}.csv`, { q: params.q, sort: params.sort, dir: params.dir });

/** `GET /app/api/org/issuers/:number` */
export function getIssuer(number: string, signal?: AbortSignal): Promise<IssuerDetail> {
  return requestJson<IssuerDetail>(one(number), { signal });
}

/** `POST /app/api/org/issuers` */
export function createIssuer(body: NewIssuerBody): Promise<IssuerDetail> {
  return requestJson<IssuerDetail>(BASE, { method: 'POST', json: body });
}

/** `PATCH /app/api/org/issuers/:number` */
export function updateIssuer(number: string, body: IssuerPatch): Promise<IssuerDetail> {
  return requestJson<IssuerDetail>(one(number), { method: 'PATCH', json: body });
}

/** `PUT /app/api/org/issuers/:number/status` */
export function setIssuerActive(number: string, active: boolean): Promise<IssuerDetail> {
  return requestJson<IssuerDetail>(`${one(number)}/status`, { method: 'PUT', json: { active } });
}

/** `DELETE /app/api/org/issuers/:number` → 204 */
export function deleteIssuer(number: string): Promise<void> {
  return requestVoid(one(number), { method: 'DELETE' });
}

/** `GET /app/api/org/issuer-groups` */
export function listIssuerGroups(signal?: AbortSignal): Promise<IssuerGroupList> {
  return requestJson<IssuerGroupList>(GROUPS, { signal });
}

/** `POST /app/api/org/issuer-groups` */
export function createIssuerGroup(name: string): Promise<IssuerGroupSummary> {
  return requestJson<IssuerGroupSummary>(GROUPS, { method: 'POST', json: { name } });
}

/** `PATCH /app/api/org/issuer-groups/:id` */
export function renameIssuerGroup(id: number, name: string): Promise<IssuerGroupSummary> {
  return requestJson<IssuerGroupSummary>(`${GROUPS}/${id}`, { method: 'PATCH', json: { name } });
}

/** `PUT /app/api/org/issuer-groups/:id/status` */
export function setIssuerGroupActive(id: number, active: boolean): Promise<IssuerGroupSummary> {
  return requestJson<IssuerGroupSummary>(`${GROUPS}/${id}/status`, { method: 'PUT', json: { active } });
}

/** `GET /app/api/org/issuers/:number/company-groups` */
export function listCompanyGroups(number: string, signal?: AbortSignal): Promise<CompanyGroupList> {
  return requestJson<CompanyGroupList>(companyGroups(number), { signal });
}

/** `POST /app/api/org/issuers/:number/company-groups` */
export function createCompanyGroup(number: string, name: string): Promise<CompanyGroupSummary> {
  return requestJson<CompanyGroupSummary>(companyGroups(number), { method: 'POST', json: { name } });
}

/** `PATCH /app/api/org/issuers/:number/company-groups/:id` */
export function renameCompanyGroup(number: string, id: number, name: string): Promise<CompanyGroupSummary> {
  return requestJson<CompanyGroupSummary>(`${companyGroups(number)}/${id}`, {
    method: 'PATCH',
    json: { name },
  });
}

/** `PUT /app/api/org/issuers/:number/company-groups/:id/status` */
export function setCompanyGroupActive(
  number: string,
  id: number,
  active: boolean,
): Promise<CompanyGroupSummary> {
  return requestJson<CompanyGroupSummary>(`${companyGroups(number)}/${id}/status`, {
    method: 'PUT',
    json: { active },
  });
}

/** `GET /app/api/org/issuers/:number/program-options` or `.../companies/:number/program-options` */
export function getProgramOptions(
  level: 'issuer' | 'company',
  number: string,
  signal?: AbortSignal,
): Promise<ProgramOptionsView> {
  return requestJson<ProgramOptionsView>(optionsUrl(level, number), { signal });
}

/** `PUT` of either level's options (a company's `null` = inherit the issuer's). */
export function saveProgramOptions(
  level: 'issuer' | 'company',
  number: string,
  options: IssuerOptionsBody['options'] | CompanyOptionsBody['options'],
): Promise<ProgramOptionsView> {
  return requestJson<ProgramOptionsView>(optionsUrl(level, number), { method: 'PUT', json: { options } });
}

function optionsUrl(level: 'issuer' | 'company', number: string): string {
  return level === 'issuer'
    ? `${one(number)}/program-options`
    : `/app/api/org/companies/${encodeURIComponent(number)}/program-options`;
}

const codesUrl = (issuer: string, list: IssuerCodeListName) =>
  `/app/api/org/issuers/${encodeURIComponent(issuer)}/${list}`;

/** `GET /app/api/org/issuers/:number/{list}`: dispute reasons, account status codes, maintenance reasons. */
export function getIssuerCodes(issuer: string, list: IssuerCodeListName, signal?: AbortSignal) {
  return requestJson<IssuerCodeList>(codesUrl(issuer, list), { signal });
}

/** `POST …/{list}` */
export function addIssuerCode(issuer: string, list: IssuerCodeListName, body: IssuerCodeBody) {
  return requestJson<IssuerCodeList>(codesUrl(issuer, list), { method: 'POST', json: body });
}

/** `PUT …/{list}/:code` */
export function changeIssuerCode(
  issuer: string,
  list: IssuerCodeListName,
  code: string,
  body: IssuerCodePatch,
) {
  return requestJson<IssuerCodeList>(`${codesUrl(issuer, list)}/${encodeURIComponent(code)}`, {
    method: 'PUT',
    json: body,
  });
}

/** `DELETE …/{list}/:code` */
export function deleteIssuerCode(issuer: string, list: IssuerCodeListName, code: string) {
  return requestJson<IssuerCodeList>(`${codesUrl(issuer, list)}/${encodeURIComponent(code)}`, {
    method: 'DELETE',
  });
}
