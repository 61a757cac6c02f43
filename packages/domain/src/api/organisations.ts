import { z } from 'zod';
import {
  apiErrorSchema,
  keysetPageFields,
  keysetQueryFields,
  type ListOrder,
  lenient,
  pageQueryText,
  sortQueryFields,
} from './common.ts';

/**
 * Contracts of the organisation endpoints under /app/api/org (docs/api.md): companies and their
 * reporting structure. Field problems are message keys (packages/domain organisations.ts); every 4xx is
 * ApiErrorBody `{ code, message, fieldErrors? }`, an upload's row problems come in `rows`.
 */

export const companySummarySchema = z
  .object({
    number: z.string(),
    name1: z.string(),
    name2: z.string(),
    issuerNumber: z.string(),
    issuerName: z.string(),
    groupName: z.string().nullable(),
    multiUser: z.boolean(),
    active: z.boolean(),
  })
  .meta({ id: 'CompanySummary' });
export type CompanySummary = z.infer<typeof companySummarySchema>;

export const companyListSchema = z
  .object({
    rows: z.array(companySummarySchema),
    ...keysetPageFields,
    /** The matches (at most LIMITS.searchMaxResults, else "Result set is too large"). */
    total: z.number().int(),
    pageCount: z.number().int(),
    pageSize: z.number().int(),
  })
  .meta({ id: 'CompanyList' });
export type CompanyList = z.infer<typeof companyListSchema>;

/**
 * `GET /app/api/org/issuers?q=&page=`: criteria 2–100 characters; numbered pages with a page jump (the
 * issuers of a programme are few by nature: docs/paging.md).
 */
/** The issuer search's orders: by number, or by name (then number). */
export const ISSUER_LIST_ORDER = {
  sorts: ['number', 'name1'],
  default: { sort: 'number', dir: 'asc' },
} as const satisfies ListOrder<string>;
export type IssuerSort = (typeof ISSUER_LIST_ORDER.sorts)[number];

export const orgSearchQuerySchema = z.object({
  q: lenient(z.string()).describe('Search criteria: 2–100 characters (number or name)'),
  page: pageQueryText,
  ...sortQueryFields(ISSUER_LIST_ORDER),
});

/** `GET /app/api/org/issuers.csv?q=&sort=&dir=`: every match of the issuer search (not one page), as CSV. */
export const issuerExportQuerySchema = orgSearchQuerySchema.omit({ page: true });
export const ISSUER_CSV_COLUMNS = [
  'number',
  'name1',
  'name2',
  'ica',
  'bankNumber',
  'issuerGroup',
  'cobrand',
  'status',
] as const;

/** The company search's orders: by number, or by name (then number). */
export const COMPANY_LIST_ORDER = {
  sorts: ['number', 'name1'],
  default: { sort: 'number', dir: 'asc' },
} as const satisfies ListOrder<string>;
export type CompanySort = (typeof COMPANY_LIST_ORDER.sorts)[number];

/** `GET /app/api/org/companies?q=&sort=&dir=&after=|before=`: criteria 2–100 characters; paged by key (docs/paging.md). */
export const companySearchQuerySchema = z.object({
  q: lenient(z.string()).describe('Search criteria: 2–100 characters (number or name)'),
  ...sortQueryFields(COMPANY_LIST_ORDER),
  ...keysetQueryFields,
});

/** `GET /app/api/org/companies.csv?q=&sort=&dir=`: every match of the search (not one page), as CSV. */
export const companyExportQuerySchema = companySearchQuerySchema.omit({ after: true, before: true });
export const COMPANY_CSV_COLUMNS = [
  'number',
  'name1',
  'name2',
  'issuerNumber',
  'issuerName',
  'groupName',
  'multiUser',
  'status',
] as const;

/** `POST /app/api/org/companies`: the company fields plus the issuer it belongs to. */
export const newCompanyBodySchema = z.object({
  issuerNumber: z.string({ error: 'company.issuerNumber.required' }),
  number: z.string().optional(),
  name1: z.string().optional(),
  name2: z.string().optional(),
  groupName: z.string().optional(),
  multiUser: z.boolean().optional(),
});
export type NewCompanyBody = z.infer<typeof newCompanyBodySchema>;

/** `PATCH /app/api/org/companies/:number`: names, group, and multi-user (which never goes back off). */
export const companyPatchSchema = z.object({
  name1: z.string().optional(),
  name2: z.string().optional(),
  groupName: z.string().optional(),
  multiUser: z.boolean().optional(),
});
export type CompanyPatch = z.infer<typeof companyPatchSchema>;

/** `PUT /app/api/org/companies/:number/status` and `.../org-points/:point/status`. */
export const activeBodySchema = z.object({ active: z.boolean({ error: 'form.invalid' }) });

/** One node of a company's reporting structure, with its children (a forest, tops first). */
export interface OrgPointNode {
  number: string;
  name1: string;
  name2: string;
  reportingLevel: number;
  reportsTo: string | null;
  active: boolean;
  children: OrgPointNode[];
}
export const orgPointNodeSchema: z.ZodType<OrgPointNode> = z
  .lazy(() =>
    z.object({
      number: z.string(),
      name1: z.string(),
      name2: z.string(),
      reportingLevel: z.number().int(),
      reportsTo: z.string().nullable(),
      active: z.boolean(),
      children: z.array(orgPointNodeSchema),
    }),
  )
  .meta({ id: 'OrgPointNode' });

export const reportingStructureSchema = z
  .object({
    company: companySummarySchema,
    /** The caller may change it (create, edit, deactivate, upload). */
    canModify: z.boolean(),
    roots: z.array(orgPointNodeSchema),
    count: z.number().int(),
  })
  .meta({ id: 'ReportingStructure' });
export type ReportingStructure = z.infer<typeof reportingStructureSchema>;

/** `POST .../org-points` body (and PATCH with every field optional but `number` fixed by the path). */
export const orgPointBodySchema = z.object({
  number: z.string().optional(),
  name1: z.string().optional(),
  name2: z.string().optional(),
  reportingLevel: z.union([z.number(), z.string()]).optional(),
  reportsTo: z.string().nullish(),
});
export type OrgPointBody = z.infer<typeof orgPointBodySchema>;

/** One refused row of a reporting-structure upload: its row number in the sheet (1 = headers). */
export const uploadRowProblemSchema = z.object({
  row: z.number().int(),
  field: z.string(),
  problem: z.string(),
});
export type UploadRowProblem = z.infer<typeof uploadRowProblemSchema>;

/** The reporting-structure upload's body: an .xlsx workbook, at most 4 MB (`upload.empty` when none). */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const workbookBodySchema = z
  .custom<Uint8Array>((body) => body instanceof Uint8Array && body.length > 0, { error: 'upload.empty' })
  .meta({
    type: 'string',
    contentMediaType: XLSX_MEDIA_TYPE,
    description: 'The workbook (.xlsx), at most 4 MB',
  });

/** A refused upload: the common refusal plus its per-row report. */
export const uploadErrorSchema = apiErrorSchema
  .extend({ rows: z.array(uploadRowProblemSchema).optional() })
  .meta({ id: 'UploadError', description: 'A refused upload: `{ code, message, fieldErrors?, rows? }`' });

/** The columns a reporting-structure upload must have (first row; case and spaces ignored). */
export const REPORTING_UPLOAD_HEADERS = [
  'Org Point Number',
  'Name 1',
  'Name 2',
  'Reporting Level',
  'Reports To',
] as const;

export const uploadResultSchema = z
  .object({ created: z.number().int(), updated: z.number().int() })
  .meta({ id: 'UploadResult' });
export type UploadResult = z.infer<typeof uploadResultSchema>;
