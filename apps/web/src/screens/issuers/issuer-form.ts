import { issuerSchema, toFieldErrors } from '@cardportal/domain';
import type { FieldProblems } from '../../lib/use-form.ts';

export type IssuerField = 'number' | 'name1' | 'name2' | 'ica' | 'bankNumber' | 'issuerGroupId' | 'cobrand';

/** Error codes that belong to one field. */
export const ISSUER_CODE_FIELDS: Record<string, IssuerField> = {
  'issuer.number.duplicate': 'number',
  'issuer.issuerGroup.forbidden': 'issuerGroupId',
};

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
  return problems;
}
