import type { AuditPage } from '@cardportal/domain';
import { requestJson } from './client.ts';

export interface AuditParams {
  from?: string | undefined;
  to?: string | undefined;
  actor?: string | undefined;
  user?: string | undefined;
  entity?: string | undefined;
  page?: number | undefined;
}

const query = (params: AuditParams, withPage: boolean) => {
  const q = new URLSearchParams();
  for (const key of ['from', 'to', 'actor', 'user', 'entity'] as const) {
    const value = params[key]?.trim();
    if (value) q.set(key, value);
  }
  if (withPage && params.page && params.page > 1) q.set('page', String(params.page));
  return q.toString();
};

/** `GET /app/api/audit?from=&to=&actor=&user=&entity=&page=` */
export function getAuditPage(params: AuditParams, signal?: AbortSignal): Promise<AuditPage> {
  const text = query(params, true);
  return requestJson<AuditPage>(text ? `/app/api/audit?${text}` : '/app/api/audit', { signal });
}

/** The CSV export's address (a plain link: the browser downloads it with the session cookie). */
export function auditExportUrl(params: AuditParams): string {
  const text = query(params, false);
  return text ? `/app/api/audit/export?${text}` : '/app/api/audit/export';
}
