import type {
  CompanyList,
  CompanyPatch,
  CompanySummary,
  NewCompanyBody,
  OrgPointBody,
  ReportingStructure,
  SelfRegistrationBody,
  SelfRegistrationSettings,
  UploadResult,
} from '@cardportal/domain';
import { requestJson, requestVoid, type SortParams, setSort, uploadBytes, withQuery } from './client.ts';

const BASE = '/app/api/org/companies';
const one = (number: string) => `${BASE}/${encodeURIComponent(number)}`;
const points = (number: string) => `${one(number)}/org-points`;
const point = (number: string, pointNumber: string) => `${points(number)}/${encodeURIComponent(pointNumber)}`;

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `GET /app/api/org/companies?q=&after=|before=` (paged by key) */
export function searchCompanies(
  params: { q?: string | undefined; after?: string | undefined; before?: string | undefined } & SortParams,
  signal?: AbortSignal,
): Promise<CompanyList> {
  const query = new URLSearchParams();
  if (params.q) query.set('q', params.q);
  setSort(query, params);
  if (params.after) query.set('after', params.after);
  else if (params.before) query.set('before', params.before);
  return requestJson<CompanyList>(`${BASE}?${query}`, { signal });
}

/** `GET /app/api/org/companies.csv?q=&sort=&dir=`: every match of the search as CSV (a download link). */
export const companiesCsvUrl = (params: { q?: string | undefined } & SortParams): string =>
  withQuery(`${BASE}.csv`, { q: params.q, sort: params.sort, dir: params.dir });

/** `GET /app/api/org/companies/:number` */
export function getCompany(number: string, signal?: AbortSignal): Promise<CompanySummary> {
  return requestJson<CompanySummary>(one(number), { signal });
}

/** `POST /app/api/org/companies` → 201 */
export function createCompany(body: NewCompanyBody): Promise<CompanySummary> {
  return requestJson<CompanySummary>(BASE, { method: 'POST', json: body });
}

/** `PATCH /app/api/org/companies/:number` */
export function updateCompany(number: string, body: CompanyPatch): Promise<CompanySummary> {
  return requestJson<CompanySummary>(one(number), { method: 'PATCH', json: body });
}

/** `PUT /app/api/org/companies/:number/status` */
export function setCompanyActive(number: string, active: boolean): Promise<CompanySummary> {
  return requestJson<CompanySummary>(`${one(number)}/status`, { method: 'PUT', json: { active } });
}

/** `DELETE /app/api/org/companies/:number` → 204 */
export function deleteCompany(number: string): Promise<void> {
  return requestVoid(one(number), { method: 'DELETE' });
}

/** `GET /app/api/org/companies/:number/org-points` */
export function getStructure(number: string, signal?: AbortSignal): Promise<ReportingStructure> {
  return requestJson<ReportingStructure>(points(number), { signal });
}

/** The `.xlsx` download of the structure (a plain link: the browser saves it). */
export function structureDownloadUrl(number: string): string {
  return `${points(number)}.xlsx`;
}

/** `POST .../org-points` */
export function createOrgPoint(number: string, body: OrgPointBody): Promise<ReportingStructure> {
  return requestJson<ReportingStructure>(points(number), { method: 'POST', json: body });
}

/** `PATCH .../org-points/:point` (edit and move: a new reportsTo / reportingLevel) */
export function updateOrgPoint(
  number: string,
  pointNumber: string,
  body: OrgPointBody,
): Promise<ReportingStructure> {
  return requestJson<ReportingStructure>(point(number, pointNumber), { method: 'PATCH', json: body });
}

/** `PUT .../org-points/:point/status` */
export function setOrgPointActive(
  number: string,
  pointNumber: string,
  active: boolean,
): Promise<ReportingStructure> {
  return requestJson<ReportingStructure>(`${point(number, pointNumber)}/status`, {
    method: 'PUT',
    json: { active },
  });
}

/** `DELETE .../org-points/:point` → 204 */
export function deleteOrgPoint(number: string, pointNumber: string): Promise<void> {
  return requestVoid(point(number, pointNumber), { method: 'DELETE' });
}

/** `POST .../org-points/upload`: the workbook's bytes; 422 `upload.rows` carries the per-row report. */
export async function uploadStructure(number: string, file: Blob): Promise<UploadResult> {
  const bytes = await file.arrayBuffer();
  return uploadBytes<UploadResult>(`${points(number)}/upload`, bytes, XLSX_CONTENT_TYPE);
}

/** `GET /app/api/org/companies/:number/self-registration`: the option in effect, the code, the locked cards. */
export function getSelfRegistration(number: string, signal?: AbortSignal): Promise<SelfRegistrationSettings> {
  return requestJson<SelfRegistrationSettings>(`${one(number)}/self-registration`, { signal });
}

/** `PUT .../self-registration`: a new corporate code, or null to remove it (409 `registrationCode.taken`). */
export function setSelfRegistration(
  number: string,
  body: SelfRegistrationBody,
): Promise<SelfRegistrationSettings> {
  return requestJson<SelfRegistrationSettings>(`${one(number)}/self-registration`, {
    method: 'PUT',
    json: body,
  });
}
