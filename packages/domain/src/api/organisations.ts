import { z } from 'zod';

/**
 * Contracts of the organisation endpoints under /app/api/org (docs/api.md): companies and their
 * reporting structure. Field problems are message keys (packages/domain organisations.ts); every 4xx is
 * ApiErrorBody `{ code, message, fieldErrors? }`, an upload's row problems come in `rows`.
 */

export interface CompanySummary {
  number: string;
  name1: string;
  name2: string;
  issuerNumber: string;
  issuerName: string;
  groupName: string | null;
  multiUser: boolean;
  active: boolean;
}

export interface CompanyList {
  rows: CompanySummary[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

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

export interface ReportingStructure {
  company: CompanySummary;
  /** The caller may change it (create, edit, deactivate, upload). */
  canModify: boolean;
  roots: OrgPointNode[];
  count: number;
}

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
export interface UploadRowProblem {
  row: number;
  field: string;
  problem: string;
}

/** The columns a reporting-structure upload must have (first row; case and spaces ignored). */
export const REPORTING_UPLOAD_HEADERS = [
  'Org Point Number',
  'Name 1',
  'Name 2',
  'Reporting Level',
  'Reports To',
] as const;

export interface UploadResult {
  created: number;
  updated: number;
}
