import type { RegistrationField } from '@cardportal/domain';
import { ApiError, serviceErrorCode } from '../../api/client.ts';
import type { TKey } from '../../i18n/i18n.ts';

/** The element id of each field (DESIGN §4 keeps the portal's ids stable). */
export const FIELD_IDS: Record<RegistrationField, string> = {
  cardNumber: 'cardNumber',
  companyCode: 'companyCode',
  expiry: 'cardExpiry',
  userId: 'userId',
  email: 'email',
  emailConfirm: 'emailConfirm',
};

/** What a failed registration shows: field errors (message keys), or one message for the form. */
export type RegisterFailure =
  | { kind: 'fields'; fields: Partial<Record<RegistrationField, string>> }
  | { kind: 'form'; message: TKey };

const FORM_MESSAGES: Record<string, TKey> = {
  'registration.notVerified': 'validation.registration.notVerified',
  'registration.alreadyRegistered': 'validation.registration.alreadyRegistered',
};

/**
 * The answer's meaning for the screen: the server's field errors (its codes are `validation.{code}`
 * messages), the proof's one answer, or the generic failure for anything else (a network failure too).
 */
export function registerFailure(error: unknown): RegisterFailure {
  if (error instanceof ApiError && error.fieldErrors && Object.keys(error.fieldErrors).length > 0) {
    const fields: Partial<Record<RegistrationField, string>> = {};
    for (const [field, code] of Object.entries(error.fieldErrors)) {
      if (Object.hasOwn(FIELD_IDS, field)) fields[field as RegistrationField] = code;
    }
    if (Object.keys(fields).length > 0) return { kind: 'fields', fields };
  }
  const code = serviceErrorCode(error);
  const message = code !== undefined && Object.hasOwn(FORM_MESSAGES, code) ? FORM_MESSAGES[code] : undefined;
  return { kind: 'form', message: message ?? 'register.error.generic' };
}
