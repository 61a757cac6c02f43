import { isSafeRedirect } from '@cardportal/domain';
import { ApiError } from '../../api/client.ts';
import { heraclesLogin } from '../../api/heracles-login.ts';
import { heraclesLogout } from '../../api/heracles-logout.ts';
import { logErrorStatement } from '../../api/log-error.ts';
import { loginSignin } from '../../api/login-signin.ts';
import { decodeRedirect } from '../../lib/redirect.ts';
import { LOGIN_DESCRIPTOR_KEY, sessionSet } from '../../lib/storage.ts';

export { decodeRedirect };

export type SigninField = 'userId' | 'password';
export type FieldErrors = Partial<Record<SigninField, 'required'>>;
/** Spec §8: a 500 is a system error; every other failure (and an unsafe answer) is a failed login. */
export type SigninFailure = 'loginFailed' | 'systemError';
export type SigninOutcome = { ok: true; url: string } | { ok: false; failure: SigninFailure };

export interface SigninInput {
  userId: string;
  password: string;
  cobrandHost: string;
  locale: string;
}

/** Spec §5: both fields required; values are trimmed. */
export function validateSignin(values: Pick<SigninInput, 'userId' | 'password'>): FieldErrors {
  const errors: FieldErrors = {};
  if (values.userId.trim() === '') errors.userId = 'required';
  if (values.password.trim() === '') errors.password = 'required';
  return errors;
}

function failureOf(error: unknown): SigninFailure {
  return error instanceof ApiError && error.status === 500 ? 'systemError' : 'loginFailed';
}

function statusOf(error: unknown): string {
  return error instanceof ApiError ? String(error.status) : 'error';
}

/**
 * The sign-in sequence of spec §4: end any previous session (its answer is ignored), fetch the login
 * descriptor, post the login, and accept only a same-origin URL of ours as the place to go.
 * Failures are reported to the error log by status only — never with the user's input.
 */
export async function runSignin(
  input: SigninInput,
  origin: string,
  signal?: AbortSignal,
): Promise<SigninOutcome> {
  const userId = input.userId.trim();
  const password = input.password.trim();
  try {
    await heraclesLogout(signal);
  } catch {
    // ignored: there may be no session to end
  }
  try {
    const descriptor = await loginSignin(userId, signal);
    // The one-time-passcode step sends these along with the code (spec §7).
    sessionSet(LOGIN_DESCRIPTOR_KEY, JSON.stringify(descriptor));
  } catch (error) {
    void logErrorStatement(`signin: loginSignin failed (${statusOf(error)})`);
    return { ok: false, failure: failureOf(error) };
  }
  let answer: string;
  try {
    answer = await heraclesLogin(
      {
        username: userId,
        password,
        loginFormType: 'password',
        cobrandHost: input.cobrandHost,
        locale: input.locale,
      },
      signal,
    );
  } catch (error) {
    // a 401 is a wrong user ID or password, not a service failure
    if (!(error instanceof ApiError && error.status === 401)) {
      void logErrorStatement(`signin: login failed (${statusOf(error)})`);
    }
    return { ok: false, failure: failureOf(error) };
  }
  const url = decodeRedirect(answer);
  if (!isSafeRedirect(url, origin)) {
    void logErrorStatement('signin: login answered a redirect that is not ours');
    return { ok: false, failure: 'loginFailed' };
  }
  return { ok: true, url };
}
