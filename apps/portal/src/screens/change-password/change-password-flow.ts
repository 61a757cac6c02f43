import { checkPasswordConstruction, effectiveMinLength, LIMITS } from '@cardportal/domain';
import { ApiError, serviceErrorCode } from '../../api/client.ts';

export type ChangePasswordField = 'old' | 'new1' | 'new2';
export const CHANGE_PASSWORD_FIELDS: readonly ChangePasswordField[] = ['old', 'new1', 'new2'];

/** The kinds of error a field can show (spec §5, §8). */
export type ChangePasswordError =
  | 'required'
  | 'matchesUserId'
  | 'mismatch'
  | 'construction'
  | 'common'
  | 'wrongCurrent';
export type ChangePasswordErrors = Partial<Record<ChangePasswordField, ChangePasswordError>>;

export interface ChangePasswordValues {
  old: string;
  new1: string;
  new2: string;
}

/**
 * Spec §5 with the shared construction rule of packages/domain (DESIGN §5: checked on both sides):
 * all three required, the new password not the user ID and built by the rules, the confirmation equal.
 * History and the current password need the server. Values are compared trimmed, as they are sent.
 */
export function validateChangePassword(
  values: ChangePasswordValues,
  userId: string,
  minLength: number = LIMITS.passwordMinLength,
): ChangePasswordErrors {
  const errors: ChangePasswordErrors = {};
  const old = values.old.trim();
  const new1 = values.new1.trim();
  const new2 = values.new2.trim();
  if (!old) errors.old = 'required';
  if (!new1) {
    errors.new1 = 'required';
  } else {
    const problems = checkPasswordConstruction(new1, userId, minLength);
    if (problems.includes('matchesUserId')) errors.new1 = 'matchesUserId';
    else if (problems.length > 0) errors.new1 = 'construction';
  }
  if (!new2) errors.new2 = 'required';
  else if (new2 !== new1) errors.new2 = 'mismatch';
  return errors;
}

/** Spec §5: the web-gateway codes of the `ec` query, and the field each marks. */
const GATEWAY_CODES: Record<string, [ChangePasswordField, ChangePasswordError]> = {
  '0x132120c9': ['old', 'wrongCurrent'],
  '0x38cf07ec': ['new2', 'mismatch'],
  '0x38cf07eb': ['new1', 'construction'],
  '0x1321212d': ['new1', 'construction'],
  '0x1321212c': ['new1', 'construction'],
};

export function errorsFromGatewayCode(ec: string | null): ChangePasswordErrors {
  const code = ec?.trim().toLowerCase();
  if (!code || !Object.hasOwn(GATEWAY_CODES, code)) return {};
  const entry = GATEWAY_CODES[code];
  return entry ? { [entry[0]]: entry[1] } : {};
}

/**
 * Spec §8: a 400 with `error[0].code` invalid.credentials marks the current password, password.policy
 * the new one — as a common password when its `problems` say so (the list lives on the server only);
 * anything else (another code or status, no answer) means cancel.
 */
export function errorsFromService(error: unknown): ChangePasswordErrors | 'cancel' {
  if (!(error instanceof ApiError) || error.status !== 400) return 'cancel';
  const code = serviceErrorCode(error);
  if (code === 'invalid.credentials') return { old: 'wrongCurrent' };
  if (code === 'password.policy') {
    const { problems } = policyDetail(error);
    const onlyCommon = problems.includes('common') && problems.every((p) => p === 'common');
    return { new1: onlyCommon ? 'common' : 'construction' };
  }
  return 'cancel';
}

/**
 * What a password.policy answer adds (apps/server password service): the problems found and the user's
 * minimum length — its issuer's, which only the server knows (the screen's length rule then states it).
 */
export function policyDetail(error: unknown): { problems: string[]; minLength?: number } {
  const body = error instanceof ApiError ? error.body : undefined;
  if (!body || typeof body !== 'object') return { problems: [] };
  const { problems, minLength } = body as Record<string, unknown>;
  return {
    problems: Array.isArray(problems) ? problems.filter((p): p is string => typeof p === 'string') : [],
    ...(typeof minLength === 'number' && Number.isInteger(minLength)
      ? { minLength: effectiveMinLength(minLength) }
      : {}),
  };
}
