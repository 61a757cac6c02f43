import type { LoginFormType } from '@cardportal/domain';
import { requestText } from './client.ts';

export const HERACLES_LOGIN_URL = '/heracles/login';

export interface HeraclesLoginForm {
  username: string;
  password: string;
  loginFormType: LoginFormType;
  /** Sent when given (the sign-in and passcode forms send them; the token forms do not). */
  cobrandHost?: string;
  locale?: string;
  /** Extra fields some login forms send (next-token: referral_path, authn_attempt_id, ...). */
  extra?: Record<string, string>;
}

/**
 * `POST /heracles/login` (or the RSA info's `forwardFormEndpoint`, a same-origin path checked by the
 * caller), form-encoded: answers the text of the URL to go to (maybe percent-encoded).
 */
export function heraclesLogin(
  form: HeraclesLoginForm,
  signal?: AbortSignal,
  endpoint: string = HERACLES_LOGIN_URL,
): Promise<string> {
  const body = new URLSearchParams({
    username: form.username,
    password: form.password,
    'login-form-type': form.loginFormType,
  });
  if (form.cobrandHost !== undefined) body.set('cobrandHost', form.cobrandHost);
  if (form.locale !== undefined) body.set('locale', form.locale);
  for (const [key, value] of Object.entries(form.extra ?? {})) body.set(key, value);
  return requestText(endpoint, { method: 'POST', form: body, signal });
}
