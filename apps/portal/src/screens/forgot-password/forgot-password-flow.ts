import { serviceErrorCode } from '../../api/client.ts';
import type { TKey } from '../../i18n/i18n.ts';

/** The wizard's steps (spec §3: show user id, security question, e-mail confirmation screen). */
export type ForgotStep = 'userId' | 'question' | 'confirmation';

/**
 * Spec §8 shows the service's first error message; we show our own bundle text for the codes we know
 * (so the page stays in the user's language and never shows server English), and a generic text for
 * anything else. `answer.required` cannot normally happen (the field is checked first).
 */
const SERVICE_ERRORS: Record<string, TKey> = {
  'answer.wrong': 'forgotPassword.error.wrongAnswer',
  'user.locked': 'forgotPassword.error.locked',
  'forgot.firstLogin': 'forgotPassword.error.firstLogin',
};

export function forgotErrorKey(error: unknown): TKey {
  const code = serviceErrorCode(error);
  return (
    (code !== undefined && Object.hasOwn(SERVICE_ERRORS, code) ? SERVICE_ERRORS[code] : undefined) ??
    'forgotPassword.error.generic'
  );
}
