import { companySchema, toFieldErrors } from '@cardportal/domain';
import type { FieldProblems } from '../../lib/use-form.ts';

export type CompanyField = 'issuerNumber' | 'number' | 'name1' | 'name2' | 'groupName';

/** Error codes that belong to one field. */
export const COMPANY_CODE_FIELDS: Record<string, CompanyField> = {
  'company.number.duplicate': 'number',
  'company.issuerNumber.unknown': 'issuerNumber',
};

/** The client's checks: the domain's company schema (the server runs the same one). */
export function validateCompany(
  values: Record<CompanyField, string>,
  mode: 'create' | 'edit',
): FieldProblems<CompanyField> {
  const problems: FieldProblems<CompanyField> = {};
  if (mode === 'create') {
    if (!values.issuerNumber.trim()) problems.issuerNumber = 'company.issuerNumber.required';
    else if (!/^\d{1,10}$/.test(values.issuerNumber.trim()))
      problems.issuerNumber = 'company.issuerNumber.unknown';
  }
  const parsed = companySchema.safeParse({
    number: values.number,
    name1: values.name1,
    name2: values.name2,
    groupName: values.groupName,
  });
  if (!parsed.success) {
    for (const [field, key] of Object.entries(toFieldErrors(parsed.error))) {
      if (field === 'number' && mode === 'edit') continue;
      if (field === 'number' || field === 'name1' || field === 'name2' || field === 'groupName')
        problems[field] = key;
    }
  }
  return problems;
}
