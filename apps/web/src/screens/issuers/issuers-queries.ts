import {
  type CompanyRegistration,
  checkAccountDigits,
  checkCompanyName,
  checkIssuerPasswordPolicy,
  checkRegistrationCode,
  checkSearchCriteria,
  companyGroupSchema,
  companySchema,
  type IssuerCodeList,
  type IssuerCodeListName,
  type IssuerDetail,
  issuerGroupSchema,
  issuerSchema,
  type ProgramOptionsView,
  parseCardBins,
} from '@cardportal/domain';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  approveCompanyRegistration,
  type CompanyRegistrationPosition,
  declineCompanyRegistration,
  inviteCompany,
  listCompanyRegistrations,
  unlockCompanyRegistration,
  withdrawCompanyInvitation,
} from '../../api/company-registrations.ts';
import {
  createCompanyGroup,
  createIssuer,
  createIssuerGroup,
  deleteIssuer,
  getIssuer,
  getIssuerCodes,
  getProgramOptions,
  listCompanyGroups,
  listIssuerGroups,
  renameCompanyGroup,
  renameIssuerGroup,
  saveProgramOptions,
  searchIssuers,
  setCompanyGroupActive,
  setIssuerActive,
  setIssuerGroupActive,
  updateIssuer,
} from '../../api/issuers.ts';

export interface IssuerSearchParams {
  q: string;
  page: number;
  /** The order (useServerSort): absent, the list's default. */
  sort?: string | undefined;
  dir?: 'asc' | 'desc' | undefined;
}
export type OptionsLevel = 'issuer' | 'company';

/** The issuer screens' query keys: everything under `['issuers']`. */
export const issuerKeys = {
  all: ['issuers'] as const,
  list: (params: IssuerSearchParams) => ['issuers', 'list', params] as const,
  detail: (number: string) => ['issuers', 'detail', number] as const,
  issuerGroups: ['issuers', 'issuerGroups'] as const,
  companyGroups: (number: string) => ['issuers', 'companyGroups', number] as const,
  options: (level: OptionsLevel, number: string) => ['issuers', 'options', level, number] as const,
};

export const issuerListQuery = (params: IssuerSearchParams) =>
  queryOptions({
    queryKey: issuerKeys.list(params),
    queryFn: ({ signal }) => searchIssuers({ ...params, q: params.q || undefined }, signal),
  });

export const issuerQuery = (number: string) =>
  queryOptions({ queryKey: issuerKeys.detail(number), queryFn: ({ signal }) => getIssuer(number, signal) });

export const issuerGroupsQuery = () =>
  queryOptions({ queryKey: issuerKeys.issuerGroups, queryFn: ({ signal }) => listIssuerGroups(signal) });

export const companyGroupsQuery = (number: string) =>
  queryOptions({
    queryKey: issuerKeys.companyGroups(number),
    queryFn: ({ signal }) => listCompanyGroups(number, signal),
  });

export const programOptionsQuery = (level: OptionsLevel, number: string) =>
  queryOptions({
    queryKey: issuerKeys.options(level, number),
    queryFn: ({ signal }) => getProgramOptions(level, number, signal),
  });

/** The search criteria: empty (all issuers) or the People rules (2–100 characters). */
export const issuerSearchSchema = z.object({ q: z.string() }).superRefine((values, ctx) => {
  const problem = values.q.trim() ? checkSearchCriteria(values.q) : undefined;
  if (problem) ctx.addIssue({ code: 'custom', path: ['q'], message: problem });
});

/** A whole number typed into a field ('' and anything else: NaN, which the range check refuses). */
export function wholeNumber(value: string): number {
  return /^\s*\d{1,4}\s*$/.test(value) ? Number(value.trim()) : Number.NaN;
}

/** Error codes of the server that belong to one field of the issuer form. */
export const ISSUER_CODE_FIELDS = {
  'issuer.number.duplicate': 'number',
  'issuer.issuerGroup.forbidden': 'issuerGroupId',
  'issuer.passwordMinLength.range': 'passwordMinLength',
  'issuer.passwordDurationDays.range': 'passwordDurationDays',
  'issuer.cardBins.tooLong': 'cardBins',
  'issuer.cardBins.format': 'cardBins',
  'issuer.cardBins.duplicate': 'cardBins',
  'issuer.accountDigits.range': 'accountDigits',
} as const;

/** The issuer form: the domain's issuer schema and password-policy bounds (the server runs both). */
export const issuerFormSchema = (mode: 'create' | 'edit') =>
  z
    .object({
      number: z.string(),
      name1: z.string(),
      name2: z.string(),
      ica: z.string(),
      bankNumber: z.string(),
      issuerGroupId: z.string(),
      cobrand: z.string(),
      passwordMinLength: z.string(),
      passwordDurationDays: z.string(),
      cardBins: z.string(),
      accountDigits: z.string(),
    })
    .superRefine((values, ctx) => {
      const parsed = issuerSchema.safeParse({
        number: mode === 'create' ? values.number : '1',
        name1: values.name1,
        name2: values.name2,
        ica: values.ica,
        bankNumber: values.bankNumber,
      });
      const seen = new Set<string>();
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (seen.has(field) || !['number', 'name1', 'name2', 'ica', 'bankNumber'].includes(field)) continue;
        seen.add(field);
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }
      const policy = checkIssuerPasswordPolicy({
        passwordMinLength: wholeNumber(values.passwordMinLength),
        passwordDurationDays: wholeNumber(values.passwordDurationDays),
      });
      for (const [field, key] of Object.entries(policy))
        ctx.addIssue({ code: 'custom', path: [field], message: key });
      const bins = parseCardBins(values.cardBins.trim());
      if ('problem' in bins) ctx.addIssue({ code: 'custom', path: ['cardBins'], message: bins.problem });
      const digits = checkAccountDigits(wholeNumber(values.accountDigits));
      if (digits) ctx.addIssue({ code: 'custom', path: ['accountDigits'], message: digits });
    });
export type IssuerFormValues = z.input<ReturnType<typeof issuerFormSchema>>;

/** A group's name (issuer group or company group): the domain's group schema. */
export const groupNameSchema = (kind: 'issuerGroup' | 'companyGroup') =>
  z.object({ name: (kind === 'issuerGroup' ? issuerGroupSchema : companyGroupSchema).shape.name });

/** Creates or saves an issuer (the answer is the issuer: cached; lists invalidated). */
export function useSaveIssuer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      number,
      body,
    }:
      | { number: undefined; body: Parameters<typeof createIssuer>[0] }
      | { number: string; body: Parameters<typeof updateIssuer>[1] }) =>
      number === undefined
        ? createIssuer(body as Parameters<typeof createIssuer>[0])
        : updateIssuer(number, body),
    onSuccess: (saved: IssuerDetail) => {
      client.setQueryData(issuerKeys.detail(saved.number), saved);
      return client.invalidateQueries({
        queryKey: issuerKeys.all,
        predicate: (q) => q.queryKey[1] !== 'detail',
      });
    },
  });
}

/** Deactivates / reactivates an issuer (the answer is the issuer). */
export function useSetIssuerActive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ number, active }: { number: string; active: boolean }) => setIssuerActive(number, active),
    onSuccess: (saved: IssuerDetail) => {
      client.setQueryData(issuerKeys.detail(saved.number), saved);
      return client.invalidateQueries({ queryKey: [...issuerKeys.all, 'list'] });
    },
  });
}

/**
 * Deletes an issuer; lists are read again. The screen forgets the issuer's cached reads
 * (`forgetIssuer`) once it has left it, so its open reads do not ask for it again.
 */
export function useDeleteIssuer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (number: string) => deleteIssuer(number),
    onSuccess: () => client.invalidateQueries({ queryKey: [...issuerKeys.all, 'list'] }),
  });
}

/** Drops a deleted issuer's cached reads. */
export function forgetIssuer(client: QueryClient, number: string) {
  client.removeQueries({ queryKey: issuerKeys.detail(number) });
  client.removeQueries({ queryKey: issuerKeys.companyGroups(number) });
  client.removeQueries({ queryKey: issuerKeys.options('issuer', number) });
}

export type GroupChange =
  | { kind: 'create'; name: string }
  | { kind: 'rename'; id: number; name: string }
  | { kind: 'setActive'; id: number; active: boolean };

/** Adds, renames, deactivates or reactivates an issuer group; the list is read again. */
export function useChangeIssuerGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: GroupChange) =>
      change.kind === 'create'
        ? createIssuerGroup(change.name)
        : change.kind === 'rename'
          ? renameIssuerGroup(change.id, change.name)
          : setIssuerGroupActive(change.id, change.active),
    onSuccess: () => client.invalidateQueries({ queryKey: issuerKeys.issuerGroups }),
  });
}

/** Adds, renames, deactivates or reactivates one of an issuer's company groups; the list is read again. */
export function useChangeCompanyGroup(number: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: GroupChange) =>
      change.kind === 'create'
        ? createCompanyGroup(number, change.name)
        : change.kind === 'rename'
          ? renameCompanyGroup(number, change.id, change.name)
          : setCompanyGroupActive(number, change.id, change.active),
    onSuccess: () => client.invalidateQueries({ queryKey: issuerKeys.companyGroups(number) }),
  });
}

/** Saves the changed program options; the answer (the new view) replaces the cached one. */
export function useSaveProgramOptions(level: OptionsLevel, number: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: Parameters<typeof saveProgramOptions>[2]) =>
      saveProgramOptions(level, number, changes),
    onSuccess: (view: ProgramOptionsView) => client.setQueryData(issuerKeys.options(level, number), view),
  });
}

export const issuerCodesKey = (issuer: string, list: IssuerCodeListName) =>
  ['issuer-codes', issuer, list] as const;

export const issuerCodesQuery = (issuer: string, list: IssuerCodeListName) =>
  queryOptions({
    queryKey: issuerCodesKey(issuer, list),
    queryFn: ({ signal }) => getIssuerCodes(issuer, list, signal),
  });

/** Add, change or delete a code of an issuer's list: the answer is the list as it now is. */
export function useIssuerCodeChange<V>(
  issuer: string,
  list: IssuerCodeListName,
  change: (value: V) => Promise<IssuerCodeList>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (answer) => client.setQueryData(issuerCodesKey(issuer, list), answer),
  });
}

// ---------------------------------------------------------------------------------------------------
// Company self-registration (issue 18 item 1): an issuer's invitations and the applications to decide.

/** The company registration screen's query keys: everything under `['company-registrations', issuer]`. */
export const companyRegistrationKeys = {
  all: (issuer: string) => ['company-registrations', issuer] as const,
  list: (issuer: string, position: CompanyRegistrationPosition) =>
    ['company-registrations', issuer, 'list', position] as const,
};

export const companyRegistrationsQuery = (issuer: string, position: CompanyRegistrationPosition) =>
  queryOptions({
    queryKey: companyRegistrationKeys.list(issuer, position),
    queryFn: ({ signal }) => listCompanyRegistrations(issuer, position, signal),
  });

/** The invitation: the company's name (required) and a corporate code (6–10 digits, or empty: drawn). */
export const invitationFormSchema = z
  .object({ companyName: z.string(), code: z.string() })
  .superRefine((values, ctx) => {
    const name = checkCompanyName(values.companyName);
    if (name) ctx.addIssue({ code: 'custom', path: ['companyName'], message: name });
    const code = values.code.trim() ? checkRegistrationCode(values.code) : undefined;
    if (code) ctx.addIssue({ code: 'custom', path: ['code'], message: code });
  });

/** Error codes of the server that belong to a field of the invitation. */
export const INVITATION_CODE_FIELDS = {
  'registrationCode.taken': 'code',
  'registrationCode.format': 'code',
} as const;

/** The approval: the new company's number and an optional company group, by the company rules. */
export const approvalFormSchema = z
  .object({ companyNumber: z.string(), groupName: z.string() })
  .superRefine((values, ctx) => {
    const number = companySchema.shape.number.safeParse(values.companyNumber);
    if (!number.success)
      ctx.addIssue({ code: 'custom', path: ['companyNumber'], message: number.error.issues[0]?.message });
    const group = companySchema.shape.groupName.safeParse(values.groupName);
    if (!group.success)
      ctx.addIssue({ code: 'custom', path: ['groupName'], message: group.error.issues[0]?.message });
  });

/** Error codes of the server that belong to a field of the approval. */
export const APPROVAL_CODE_FIELDS = { 'company.number.duplicate': 'companyNumber' } as const;

export type CompanyRegistrationChange =
  | { kind: 'invite'; companyName: string; code: string | null }
  | { kind: 'approve'; id: number; companyNumber: string; groupName?: string }
  | { kind: 'decline'; id: number; reason: string }
  | { kind: 'unlock'; id: number }
  | { kind: 'withdraw'; id: number };

/**
 * Invites a company, approves, declines, unlocks or withdraws a registration; the answer is the
 * registration as it now is (none for a withdrawal). The issuer's registrations are read again after
 * each (a refusal too: the list may have changed under the caller).
 */
export function useChangeCompanyRegistration(issuer: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: CompanyRegistrationChange): Promise<CompanyRegistration | undefined> => {
      switch (change.kind) {
        case 'invite':
          return inviteCompany(issuer, { companyName: change.companyName, code: change.code });
        case 'approve':
          return approveCompanyRegistration(issuer, change.id, {
            companyNumber: change.companyNumber,
            ...(change.groupName ? { groupName: change.groupName } : {}),
          });
        case 'decline':
          return declineCompanyRegistration(issuer, change.id, change.reason);
        case 'unlock':
          return unlockCompanyRegistration(issuer, change.id);
        case 'withdraw':
          return withdrawCompanyInvitation(issuer, change.id).then(() => undefined);
      }
    },
    onSettled: (_answer, _error, change) =>
      Promise.all([
        client.invalidateQueries({ queryKey: companyRegistrationKeys.all(issuer) }),
        // An approval adds a company (the issuer's count) and may add its company group.
        ...(change.kind === 'approve'
          ? [
              client.invalidateQueries({ queryKey: issuerKeys.detail(issuer) }),
              client.invalidateQueries({ queryKey: issuerKeys.companyGroups(issuer) }),
            ]
          : []),
      ]),
  });
}
