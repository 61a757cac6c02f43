import {
  ACCOUNTING_LIMITS,
  type AccountCodingBody,
  type AccountingCodePatch,
  type AccountingSchemeBody,
  type AccountingSubsetBody,
  type AccountingValuePatch,
  checkSearchCriteria,
  codeLengthProblem,
  codeNameProblem,
  customerCodeProblem,
  type NewAccountingCodeBody,
  type NewAccountingValueBody,
  OVERRIDE_LEVELS,
  schemeNameProblem,
  splitCodeList,
  valueDescriptionProblem,
} from '@cardportal/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  createAccountingCode,
  createAccountingValue,
  deleteAccountingCode,
  deleteAccountingScheme,
  deleteAccountingSubset,
  deleteAccountingValue,
  getAccountCoding,
  listAccountingCodes,
  listAccountingSchemes,
  listAccountingSubsets,
  listAccountingValues,
  listGroupSchemes,
  saveAccountingScheme,
  saveAccountingSubset,
  setAccountCoding,
  setGroupScheme,
  updateAccountingCode,
  updateAccountingValue,
  type ValueSearch,
} from '../../api/accounting.ts';

/** Accounting's query keys: a company's codes and values under `['accounting', number]`. */
export const accountingKeys = {
  company: (number: string) => ['accounting', number] as const,
  codes: (number: string) => ['accounting', number, 'codes'] as const,
  values: (number: string, id: string, params: ValueSearch) =>
    ['accounting', number, 'values', id, params] as const,
};

export const accountingCodesQuery = (number: string) =>
  queryOptions({
    queryKey: accountingKeys.codes(number),
    queryFn: ({ signal }) => listAccountingCodes(number, signal),
  });

export const accountingValuesQuery = (number: string, id: string, params: ValueSearch) =>
  queryOptions({
    queryKey: accountingKeys.values(number, id, params),
    queryFn: ({ signal }) => listAccountingValues(number, id, params, signal),
  });

/** A change to the company's codes or values: everything of its accounting is read again. */
function useAccountingChange<V, R>(number: string, change: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => client.invalidateQueries({ queryKey: accountingKeys.company(number) }),
  });
}

export const useCreateCode = (number: string) =>
  useAccountingChange(number, (body: NewAccountingCodeBody) => createAccountingCode(number, body));
export const useUpdateCode = (number: string) =>
  useAccountingChange(number, (v: { id: number; patch: AccountingCodePatch }) =>
    updateAccountingCode(number, v.id, v.patch),
  );
export const useDeleteCode = (number: string) =>
  useAccountingChange(number, (id: number) => deleteAccountingCode(number, id));
export const useCreateValue = (number: string, id: string) =>
  useAccountingChange(number, (body: NewAccountingValueBody) => createAccountingValue(number, id, body));
export const useUpdateValue = (number: string, id: string) =>
  useAccountingChange(number, (v: { valueId: number; patch: AccountingValuePatch }) =>
    updateAccountingValue(number, id, v.valueId, v.patch),
  );
export const useDeleteValue = (number: string, id: string) =>
  useAccountingChange(number, (valueId: number) => deleteAccountingValue(number, id, valueId));

/** The code form: the domain's rules for name and length (the server adds duplicates and dependencies). */
export const codeFormSchema = z
  .object({
    name: z.string(),
    kind: z.enum(['list', 'text']),
    entry: z.enum(['list', 'entry']),
    maxLength: z.string(),
    dependsOn: z.string(),
  })
  .superRefine((v, ctx) => {
    const name = codeNameProblem(v.name.trim());
    if (name) ctx.addIssue({ code: 'custom', path: ['name'], message: name });
    if (v.kind === 'text') {
      const length = codeLengthProblem(/^\d+$/.test(v.maxLength.trim()) ? Number(v.maxLength) : Number.NaN);
      if (length) ctx.addIssue({ code: 'custom', path: ['maxLength'], message: length });
    }
  });
export type CodeForm = z.infer<typeof codeFormSchema>;

export const codeFormDefaults: CodeForm = {
  name: '',
  kind: 'list',
  entry: 'list',
  maxLength: String(ACCOUNTING_LIMITS.valueMaxLength),
  dependsOn: '',
};

/** The value form: the customer-code and description rules of the domain; the parent is the server's to find. */
export const valueFormSchema = z
  .object({ value: z.string(), description: z.string(), parent: z.string() })
  .superRefine((v, ctx) => {
    const value = customerCodeProblem(v.value.trim());
    if (value) ctx.addIssue({ code: 'custom', path: ['value'], message: value });
    const description = valueDescriptionProblem(v.description.trim());
    if (description) ctx.addIssue({ code: 'custom', path: ['description'], message: description });
  });

export const descriptionFormSchema = z.object({ description: z.string() }).superRefine((v, ctx) => {
  const problem = valueDescriptionProblem(v.description.trim());
  if (problem) ctx.addIssue({ code: 'custom', path: ['description'], message: problem });
});

/** Value search: empty (list all) or 2–100 characters. */
export const valueSearchSchema = z.object({ q: z.string(), status: z.string() }).superRefine((v, ctx) => {
  const problem = v.q.trim() === '' ? undefined : checkSearchCriteria(v.q);
  if (problem) ctx.addIssue({ code: 'custom', path: ['q'], message: problem });
});

export const subsetsQuery = (number: string) =>
  queryOptions({
    queryKey: [...accountingKeys.company(number), 'subsets'] as const,
    queryFn: ({ signal }) => listAccountingSubsets(number, signal),
  });
export const schemesQuery = (number: string) =>
  queryOptions({
    queryKey: [...accountingKeys.company(number), 'schemes'] as const,
    queryFn: ({ signal }) => listAccountingSchemes(number, signal),
  });
export const groupSchemesQuery = (number: string) =>
  queryOptions({
    queryKey: [...accountingKeys.company(number), 'groups'] as const,
    queryFn: ({ signal }) => listGroupSchemes(number, signal),
  });
export const accountCodingQuery = (number: string, accountId: string) =>
  queryOptions({
    queryKey: [...accountingKeys.company(number), 'account', accountId] as const,
    queryFn: ({ signal }) => getAccountCoding(number, accountId, signal),
  });

export const useSaveSubset = (number: string) =>
  useAccountingChange(number, (v: { id?: number | undefined; body: AccountingSubsetBody }) =>
    saveAccountingSubset(number, v.id, v.body),
  );
export const useDeleteSubset = (number: string) =>
  useAccountingChange(number, (id: number) => deleteAccountingSubset(number, id));
export const useSaveScheme = (number: string) =>
  useAccountingChange(number, (v: { id?: number | undefined; body: AccountingSchemeBody }) =>
    saveAccountingScheme(number, v.id, v.body),
  );
export const useDeleteScheme = (number: string) =>
  useAccountingChange(number, (id: number) => deleteAccountingScheme(number, id));
export const useSetGroupScheme = (number: string) =>
  useAccountingChange(number, (v: { groupId: number; schemeId: number | null }) =>
    setGroupScheme(number, v.groupId, v.schemeId),
  );
export const useSetAccountCoding = (number: string, accountId: string) =>
  useAccountingChange(number, (body: AccountCodingBody) => setAccountCoding(number, accountId, body));

/** A name field's problem by the domain's rule (schemes and subsets). */
const named = (what: 'accountingScheme' | 'accountingSubset') =>
  z.string().superRefine((name, ctx) => {
    const problem = schemeNameProblem(name.trim(), what);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const subsetFormSchema = z.object({
  name: named('accountingSubset'),
  codeId: z.string().min(1, { error: 'accountingSubset.code.unknown' }),
  values: z
    .string()
    .refine((text) => splitCodeList(text).length > 0, { error: 'accountingSubset.values.required' }),
});

export const schemeFormSchema = z.object({
  name: named('accountingScheme'),
  isDefault: z.boolean(),
  lines: z
    .array(
      z.object({
        codeId: z.string().min(1, { error: 'accountingScheme.code.unknown' }),
        required: z.boolean(),
        override: z.enum(OVERRIDE_LEVELS),
        subsetId: z.string(),
      }),
    )
    .min(1, { error: 'accountingScheme.codes.required' }),
});
export type SchemeForm = z.infer<typeof schemeFormSchema>;
