import {
  type CompanySummary,
  checkRegistrationCode,
  checkSearchCriteria,
  companySchema,
  orgPointSchema,
  type ReportingStructure,
  type SelfRegistrationSettings,
} from '@cardportal/domain';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  createCompany,
  createOrgPoint,
  deleteCompany,
  deleteOrgPoint,
  getCompany,
  getSelfRegistration,
  getStructure,
  searchCompanies,
  setCompanyActive,
  setOrgPointActive,
  setSelfRegistration,
  updateCompany,
  updateOrgPoint,
  uploadStructure,
} from '../../api/organisations.ts';

export interface CompanySearchParams {
  q: string;
  /** The page's cursor (useKeysetCursor): rows after or before it. */
  after?: string | undefined;
  before?: string | undefined;
  /** The order (useServerSort): absent, the list's default. */
  sort?: string | undefined;
  dir?: 'asc' | 'desc' | undefined;
}

/** The organisation screens' query keys: everything under `['organisation']`. */
export const organisationKeys = {
  all: ['organisation'] as const,
  list: (params: CompanySearchParams) => ['organisation', 'list', params] as const,
  detail: (number: string) => ['organisation', 'detail', number] as const,
  structure: (number: string) => ['organisation', 'structure', number] as const,
  /** Also invalidated by the accounts screens when a card is unlocked (accounts-queries.ts). */
  selfRegistration: (number: string) => ['organisation', 'self-registration', number] as const,
};

/** One page of the companies in scope (criteria and page from the URL). */
export const companyListQuery = (params: CompanySearchParams) =>
  queryOptions({
    queryKey: organisationKeys.list(params),
    queryFn: ({ signal }) => searchCompanies({ ...params, q: params.q || undefined }, signal),
  });

/** One company. */
export const companyQuery = (number: string) =>
  queryOptions({
    queryKey: organisationKeys.detail(number),
    queryFn: ({ signal }) => getCompany(number, signal),
  });

/** A company's reporting structure (its org points as a forest). */
export const structureQuery = (number: string) =>
  queryOptions({
    queryKey: organisationKeys.structure(number),
    queryFn: ({ signal }) => getStructure(number, signal),
  });

/** A company's self-registration: the option in effect, its corporate code, its locked cards. */
export const selfRegistrationQuery = (number: string) =>
  queryOptions({
    queryKey: organisationKeys.selfRegistration(number),
    queryFn: ({ signal }) => getSelfRegistration(number, signal),
  });

/** The search criteria: empty (all companies) or the People rules (2–100 characters). */
export const companySearchSchema = z.object({ q: z.string() }).superRefine((values, ctx) => {
  const problem = values.q.trim() ? checkSearchCriteria(values.q) : undefined;
  if (problem) ctx.addIssue({ code: 'custom', path: ['q'], message: problem });
});

/** Error codes of the server that belong to one field of the company form. */
export const COMPANY_CODE_FIELDS = {
  'company.number.duplicate': 'number',
  'company.issuerNumber.unknown': 'issuerNumber',
} as const;

/** The company form: the domain's company schema (the server runs the same one) and the issuer number. */
export const companyFormSchema = (mode: 'create' | 'edit') =>
  z
    .object({
      issuerNumber: z.string(),
      number: z.string(),
      name1: z.string(),
      name2: z.string(),
      groupName: z.string(),
      // Undefined while the box is disabled (multi-user stays on once on).
      multiUser: z.boolean().optional(),
    })
    .superRefine((values, ctx) => {
      if (mode === 'create') {
        const issuer = values.issuerNumber.trim();
        if (!issuer)
          ctx.addIssue({ code: 'custom', path: ['issuerNumber'], message: 'company.issuerNumber.required' });
        else if (!/^\d{1,10}$/.test(issuer))
          ctx.addIssue({ code: 'custom', path: ['issuerNumber'], message: 'company.issuerNumber.unknown' });
      }
      const parsed = companySchema.safeParse({
        number: mode === 'create' ? values.number : '1',
        name1: values.name1,
        name2: values.name2,
        groupName: values.groupName,
      });
      if (parsed.success) return;
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (seen.has(field) || !['number', 'name1', 'name2', 'groupName'].includes(field)) continue;
        seen.add(field);
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }
    });
export type CompanyFormValues = z.input<ReturnType<typeof companyFormSchema>>;

/** The self-registration code form: the domain's rule (6–10 digits), the one the server applies. */
export const selfRegistrationFormSchema = z.object({
  code: z.string().superRefine((value, ctx) => {
    const problem = checkRegistrationCode(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});

/** Error codes of the server that belong to the code field. */
export const SELF_REGISTRATION_CODE_FIELDS = {
  'registrationCode.taken': 'code',
  'registrationCode.format': 'code',
} as const;

/** The org point form: the domain's org point schema (the server adds the whole-structure checks). */
export const orgPointFormSchema = z
  .object({
    number: z.string(),
    name1: z.string(),
    name2: z.string(),
    reportingLevel: z.string(),
    reportsTo: z.string(),
  })
  .superRefine((values, ctx) => {
    const parsed = orgPointSchema.safeParse({
      ...values,
      reportingLevel: values.reportingLevel.trim(),
      reportsTo: values.reportsTo || null,
    });
    if (parsed.success) return;
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (seen.has(field) || !['number', 'name1', 'name2', 'reportingLevel', 'reportsTo'].includes(field))
        continue;
      seen.add(field);
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
  });
export type OrgPointFormValues = z.input<typeof orgPointFormSchema>;

/** Creates a company (the answer is the company: cached; lists invalidated). */
export function useCreateCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createCompany,
    onSuccess: (saved: CompanySummary) => {
      client.setQueryData(organisationKeys.detail(saved.number), saved);
      return client.invalidateQueries({ queryKey: [...organisationKeys.all, 'list'] });
    },
  });
}

/** Saves a company's names, group and multi-user setting. */
export function useUpdateCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ number, body }: { number: string; body: Parameters<typeof updateCompany>[1] }) =>
      updateCompany(number, body),
    onSuccess: (saved: CompanySummary) => {
      client.setQueryData(organisationKeys.detail(saved.number), saved);
      return client.invalidateQueries({ queryKey: [...organisationKeys.all, 'list'] });
    },
  });
}

/** Deactivates / reactivates a company. */
export function useSetCompanyActive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ number, active }: { number: string; active: boolean }) => setCompanyActive(number, active),
    onSuccess: (saved: CompanySummary) => {
      client.setQueryData(organisationKeys.detail(saved.number), saved);
      return client.invalidateQueries({ queryKey: [...organisationKeys.all, 'list'] });
    },
  });
}

/**
 * Deletes a company; lists are read again. The screen forgets the company's cached reads
 * (`forgetCompany`) once it has left it, so its open reads do not ask for it again.
 */
export function useDeleteCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (number: string) => deleteCompany(number),
    onSuccess: () => client.invalidateQueries({ queryKey: [...organisationKeys.all, 'list'] }),
  });
}

/** Drops a deleted company's cached reads. */
export function forgetCompany(client: QueryClient, number: string) {
  client.removeQueries({ queryKey: organisationKeys.detail(number) });
  client.removeQueries({ queryKey: organisationKeys.structure(number) });
  client.removeQueries({ queryKey: organisationKeys.selfRegistration(number) });
}

/** Sets (a code) or removes (null) the company's self-registration code: the answer is cached. */
export function useSetSelfRegistration(company: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string | null) => setSelfRegistration(company, { code }),
    onSuccess: (settings: SelfRegistrationSettings) => {
      client.setQueryData(organisationKeys.selfRegistration(company), settings);
    },
  });
}

/** Creates or changes an org point: the answer is the new structure. */
export function useSaveOrgPoint(company: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ point, values }: { point: string | undefined; values: OrgPointFormValues }) => {
      const body = {
        name1: values.name1.trim(),
        name2: values.name2.trim(),
        reportingLevel: Number(values.reportingLevel.trim()),
        reportsTo: values.reportsTo || null,
      };
      return point
        ? updateOrgPoint(company, point, body)
        : createOrgPoint(company, { number: values.number.trim(), ...body });
    },
    onSuccess: (structure: ReportingStructure) => {
      client.setQueryData(organisationKeys.structure(company), structure);
    },
  });
}

/** Deactivates / reactivates an org point (answer: the structure) or deletes one. */
export function useChangeOrgPoint(company: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      point,
      action,
    }: {
      point: string;
      action: 'deactivate' | 'reactivate' | 'delete';
    }) => {
      if (action === 'delete') {
        await deleteOrgPoint(company, point);
        return undefined;
      }
      return setOrgPointActive(company, point, action === 'reactivate');
    },
    onSuccess: (structure: ReportingStructure | undefined) => {
      if (structure) client.setQueryData(organisationKeys.structure(company), structure);
      else return client.invalidateQueries({ queryKey: organisationKeys.structure(company) });
    },
  });
}

/** Uploads a reporting-structure workbook; the structure is read again afterwards. */
export function useUploadStructure(company: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: Blob) => uploadStructure(company, file),
    onSuccess: () => client.invalidateQueries({ queryKey: organisationKeys.structure(company) }),
  });
}
