import { auditQuerySchema, checkAuditRange } from '@cardportal/domain';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { type AuditParams, getAuditPage } from '../../api/audit.ts';

/** The audit screen's query keys: everything under `['audit']`. */
export const auditKeys = {
  all: ['audit'] as const,
  page: (params: AuditParams) => ['audit', 'page', params] as const,
};

/** One page of the audit trail for the filters (the URL's); the fetch is aborted when the screen leaves. */
export const auditPageQuery = (params: AuditParams) =>
  queryOptions({
    queryKey: auditKeys.page(params),
    queryFn: ({ signal }) => getAuditPage(params, signal),
  });

export const AUDIT_FILTERS = ['from', 'to', 'actor', 'user', 'entity'] as const;
export type AuditFilter = (typeof AUDIT_FILTERS)[number];
export type AuditFilterValues = Record<AuditFilter, string>;

/**
 * The filter form's schema: the API's own filter rules (packages/domain: at most 64 characters each)
 * and its date-range rule (each a real date, From not after To, at most 30 days), with
 * the same message keys the server answers.
 */
export const auditFilterSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    actor: auditQuerySchema.shape.actor.unwrap(),
    user: auditQuerySchema.shape.user.unwrap(),
    entity: auditQuerySchema.shape.entity.unwrap(),
  })
  .superRefine((values, ctx) => {
    const problems = checkAuditRange(values.from, values.to);
    for (const field of ['from', 'to'] as const) {
      const key = problems[field];
      if (key) ctx.addIssue({ code: 'custom', path: [field], message: key });
    }
  });

/** The filters the URL holds ('' when absent). */
export function filtersOf(params: URLSearchParams): AuditFilterValues {
  return Object.fromEntries(AUDIT_FILTERS.map((f) => [f, params.get(f) ?? ''])) as AuditFilterValues;
}

/** The URL query of filters (empty ones left out); the page's cursor is useKeysetCursor's. */
export function searchOf(filters: Partial<AuditFilterValues>): URLSearchParams {
  const query = new URLSearchParams();
  for (const f of AUDIT_FILTERS) {
    const value = filters[f]?.trim();
    if (value) query.set(f, value);
  }
  return query;
}
