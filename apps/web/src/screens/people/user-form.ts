import {
  checkEmail,
  checkEmailPair,
  checkNewUserId,
  USER_NAME_MAX_LENGTH,
  USER_TYPE_INFO,
  type UserType,
} from '@cardportal/domain';

/** The user form's fields, in the form's order. */
export const USER_FIELDS = [
  'userId',
  'firstName',
  'lastName',
  'email',
  'emailConfirm',
  'userType',
  'companyId',
  'locale',
] as const;
export type UserField = (typeof USER_FIELDS)[number];

/** Each field's problem (a message key). */
export type FieldProblems<F extends string> = Partial<Record<F, string>>;

/** Server field names that land on a form field. */
export const USER_FIELD_ALIAS: Partial<Record<string, UserField>> = {
  'placement.companyId': 'companyId',
  placement: 'companyId',
};

/** Error codes that belong to one field. */
export const USER_CODE_FIELDS: Partial<Record<string, UserField>> = {
  'userId.exists': 'userId',
};

/**
 * Whether the form asks for a company: the new user's type is placed in a company and the caller has
 * no company of its own to default to (an omitted placement defaults to the caller's, see the API).
 */
export function needsCompany(caller: UserType, target: string): boolean {
  const info = USER_TYPE_INFO[target as UserType];
  if (!info) return false;
  return info.scopeFields.includes('companyId') && !USER_TYPE_INFO[caller].scopeFields.includes('companyId');
}

function checkName(field: 'firstName' | 'lastName', value: string): string | undefined {
  if (!value.trim()) return `${field}.required`;
  if ([...value.trim()].length > USER_NAME_MAX_LENGTH) return `${field}.tooLong`;
  return undefined;
}

/**
 * The client's checks, with the domain's rules (the server applies the same ones and more). In edit
 * mode the user ID is fixed and the e-mail confirmation is needed only when the address changes.
 */
export function validateUser(
  values: Record<UserField, string>,
  options: { mode: 'create' | 'edit'; caller: UserType; originalEmail?: string },
): FieldProblems<UserField> {
  const problems: FieldProblems<UserField> = {};
  if (options.mode === 'create') {
    const id = checkNewUserId(values.userId)[0];
    if (id) problems.userId = id;
  }
  const first = checkName('firstName', values.firstName);
  if (first) problems.firstName = first;
  const last = checkName('lastName', values.lastName);
  if (last) problems.lastName = last;
  const emailChanged =
    options.mode === 'create' ||
    values.email.trim().toLowerCase() !== (options.originalEmail ?? '').toLowerCase();
  if (emailChanged) {
    const pair = checkEmailPair(values.email.trim(), values.emailConfirm.trim());
    if (pair.email) problems.email = pair.email;
    if (pair.emailConfirm) problems.emailConfirm = pair.emailConfirm;
  } else {
    const email = checkEmail(values.email.trim());
    if (email) problems.email = email;
  }
  if (!values.userType) problems.userType = 'userType.required';
  if (needsCompany(options.caller, values.userType)) {
    if (!values.companyId.trim()) problems.companyId = 'placement.companyIdRequired';
    else if (!/^\d{1,10}$/.test(values.companyId.trim())) problems.companyId = 'placement.invalid';
  }
  return problems;
}
