import type { LoginFormType } from '@cardportal/domain';
import { requestText } from './client.ts';

export interface HeraclesLoginForm {
  username: string;
  password: string;
  loginFormType: LoginFormType;
  cobrandHost: string;
  locale: string;
  /** Extra fields some login forms send (next-token: referral_path, authn_attempt_id, ...). */
  extra?: Record<string, string>;
}

/** `POST /heracles/login`, form-encoded: answers the text of the URL to go to (maybe percent-encoded). */
export function heraclesLogin(form: HeraclesLoginForm, signal?: AbortSignal): Promise<string> {
  const body = new URLSearchParams({
    username: form.username,
    password: form.password,
    'login-form-type': form.loginFormType,
    cobrandHost: form.cobrandHost,
    locale: form.locale,
    ...form.extra,
  });
  return requestText('/heracles/login', { method: 'POST', form: body, signal });
}
