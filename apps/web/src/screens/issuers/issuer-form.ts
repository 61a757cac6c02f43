import { checkIssuerPasswordPolicy, issuerSchema, toFieldErrors } from '@cardportal/domain';
import type { FieldProblems } from '../../lib/use-form.ts';

export type IssuerField =
  | 'number'
  | 'name1'
  | 'name2'
  | 'ica'
  | 'bankNumber'
  | 'issuerGroupId'
  | 'cobrand'
  | 'passwordMinLength'
  | 'passwordDurationDays';

/** Error codes that belong to one field. */
export const ISSUER_CODE_FIELDS: Record<string, IssuerField> = {
  'issuer.number.duplicate': 'number',
  'issuer.issuerGroup.forbidden': 'issuerGroupId',
  'issuer.passwordMinLength.range': 'passwordMinLength',
  'issuer.passwordDurationDays.range': 'passwordDurationDays',
};

/** A whole number typed into a field ('' and anything else: NaN, which the range check refuses). */
export function wholeNumber(value: string): number {
  return /^\s*\d{1,4}\s*$/.test(value) ? Number(value.trim()) : Number.NaN;
}

/** The client's checks: the domain's issuer schema (the server runs the same one). */
export function validateIssuer(
  values: Record<IssuerField, string>,
  mode: 'create' | 'edit',
): FieldProblems<IssuerField> {
  const problems: FieldProblems<IssuerField> = {};
  const parsed = issuerSchema.safeParse({
    number: values.number,
    name1: values.name1,
    name2: values.name2,
    ica: values.ica,
    bankNumber: values.bankNumber,
  });
  if (!parsed.success) {
    for (const [field, key] of Object.entries(toFieldErrors(parsed.error))) {
      if (field === 'number' && mode === 'edit') continue;
      if (
        field === 'number' ||
        field === 'name1' ||
        field === 'name2' ||
        field === 'ica' ||
        field === 'bankNumber'
      )
        problems[field] = key;
    }
  }
  const policy = checkIssuerPasswordPolicy({
    passwordMinLength: wholeNumber(values.passwordMinLength),
    passwordDurationDays: wholeNumber(values.passwordDurationDays),
  });
  if (policy.passwordMinLength) problems.passwordMinLength = policy.passwordMinLength;
  if (policy.passwordDurationDays) problems.passwordDurationDays = policy.passwordDurationDays;
  return problems;
}
