import type { AuditPage } from '@cardportal/domain';
import { requestJson, setSort } from './client.ts';

export interface AuditParams {
  from?: string | undefined;
  to?: string | undefined;
  actor?: string | undefined;
  user?: string | undefined;
  entity?: string | undefined;
  /** A cursor of the previous answer: the rows after it, or before it (docs/paging.md). */
  after?: string | undefined;
  before?: string | undefined;
  /** Oldest first (`asc`) or newest first (the default). */
  dir?: 'asc' | 'desc' | undefined;
}

const query = (params: AuditParams, withPage: boolean) => {
  const q = new URLSearchParams();
  for (const key of ['from', 'to', 'actor', 'user', 'entity'] as const) {
    const value = params[key]?.trim();
    if (value) q.set(key, value);
  }
  if (withPage && params.dir) setSort(q, { sort: 'at', dir: params.dir });
  if (withPage && params.after) q.set('after', params.after);
  else if (withPage && params.before) q.set('before', params.before);
  return q.toString();
};

/** `GET /app/api/audit?from=&to=&actor=&user=&entity=&after=|before=` */
export function getAuditPage(params: AuditParams, signal?: AbortSignal): Promise<AuditPage> {
  const text = query(params, true);
  return requestJson<AuditPage>(text ? `/app/api/audit?${text}` : '/app/api/audit', { signal });
}

/** The CSV export's address (a plain link: the browser downloads it with the session cookie). */
export function auditExportUrl(params: AuditParams): string {
  const text = query(params, false);
  return text ? `/app/api/audit/export?${text}` : '/app/api/audit/export';
}
