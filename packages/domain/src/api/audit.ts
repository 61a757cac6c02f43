import { z } from 'zod';
import { keysetPageFields, keysetQueryFields, type ListOrder, sortQueryFields } from './common.ts';

/**
 * Contracts of the audit-trail endpoints (docs/api.md): `GET /app/api/audit?from=&to=&after=|before=` (paged by key, docs/paging.md) and
 * `GET /app/api/audit/export?from=&to=` (CSV). Dates are calendar days `YYYY-MM-DD` (UTC), both
 * inclusive; From must not be after To and a range holds at most AUDIT_MAX_RANGE_DAYS days (seed 001
 * §5, §9: "audit window at most 30 days"; the export is refused past it with `audit.rangeTooLong`).
 * Without dates, the last 30 days up to today.
 */

export const AUDIT_MAX_RANGE_DAYS = 30;
export const AUDIT_PAGE_SIZE = 50;
/** The audit screen counts the range's events up to this many; past it, it says "1,000+". */
export const AUDIT_COUNT_CAP = 1000;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'date.invalid' })
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    {
      error: 'date.invalid',
    },
  );

/** Optional filters: the actor's user ID, the subject user's user ID, the kind of record (exact, any case). */
const filterText = z.string().trim().max(64, { error: 'audit.filter.tooLong' }).optional();
export const AUDIT_ENTITIES = [
  'user',
  'role',
  'issuerGroup',
  'issuer',
  'companyGroup',
  'company',
  'orgPoint',
  'cardholder',
  'account',
  'accountGroup',
  'realCard',
  'transaction',
  'transactionImport',
  'transactionExport',
  'audit',
] as const;

/** The audit trail's order: by time, newest (default) or oldest first. */
export const AUDIT_LIST_ORDER = {
  sorts: ['at'],
  default: { sort: 'at', dir: 'desc' },
} as const satisfies ListOrder<string>;

export const auditQuerySchema = z.object({
  from: day.optional(),
  to: day.optional(),
  ...sortQueryFields(AUDIT_LIST_ORDER),
  ...keysetQueryFields,
  actor: filterText,
  user: filterText,
  entity: filterText,
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditExportQuerySchema = z.object({
  from: day.optional(),
  to: day.optional(),
  actor: filterText,
  user: filterText,
  entity: filterText,
});

export type AuditFilters = {
  actor?: string | undefined;
  user?: string | undefined;
  entity?: string | undefined;
};
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;

/** A changed field: its value before and after (never a secret: passwords, answers and PINs are left out). */
export const auditChangeSchema = z.object({ before: z.unknown(), after: z.unknown() });
export type AuditChange = z.infer<typeof auditChangeSchema>;

export const auditRowSchema = z
  .object({
    id: z.number().int(),
    /** When (ISO 8601). */
    at: z.string(),
    event: z.string(),
    /** Who: the acting user's user ID (null for the system or a sign-in by the subject itself). */
    actor: z.string().nullable(),
    /** What: the kind of record and its id (for users, the user ID). */
    entity: z.string().nullable(),
    entityId: z.string().nullable(),
    /** The user the event is about (user ID), when there is one. */
    subject: z.string().nullable(),
    changes: z.record(z.string(), auditChangeSchema).nullable(),
    ip: z.string().nullable(),
  })
  .meta({ id: 'AuditRow' });
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditPageSchema = z
  .object({
    rows: z.array(auditRowSchema),
    ...keysetPageFields,
    /** The events in the range, counted up to AUDIT_COUNT_CAP. */
    total: z.number().int(),
    /** More than `total` events: the count stopped at AUDIT_COUNT_CAP. */
    totalIsLowerBound: z.boolean(),
    pageSize: z.number().int(),
    from: z.string(),
    to: z.string(),
  })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** CSV columns of the export, in order. */
export const AUDIT_CSV_COLUMNS = [
  'at',
  'event',
  'actor',
  'entity',
  'entityId',
  'subject',
  'changes',
  'ip',
] as const;

/** Error codes of the audit endpoints. */
export const AUDIT_API_ERROR_CODES = [
  'date.invalid',
  'dateRange.fromAfterTo',
  'audit.rangeTooLong',
  'audit.forbidden',
] as const;

/**
 * The screen's check of a From / To pair (`YYYY-MM-DD`, either may be empty), by the rules the server
 * applies: each a real date, From not after To, at most AUDIT_MAX_RANGE_DAYS days. Field → message key.
 */
export function checkAuditRange(from: string, to: string): { from?: string; to?: string } {
  const valid = (v: string) => v === '' || auditQuerySchema.shape.from.safeParse(v).success;
  const problems: { from?: string; to?: string } = {};
  if (!valid(from)) problems.from = 'date.invalid';
  if (!valid(to)) problems.to = 'date.invalid';
  if (problems.from || problems.to || !from || !to) return problems;
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (days < 0) return { from: 'dateRange.fromAfterTo' };
  if (days + 1 > AUDIT_MAX_RANGE_DAYS) return { to: 'audit.rangeTooLong' };
  return {};
}
