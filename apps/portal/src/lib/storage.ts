/** Session/local storage that never throws (storage can be disabled or full). */

export const COBRAND_KEY = 'COBRAND';
export const USER_ID_KEY = 'userId';
export const SET_PIN_KEY = 'setPin';
/** The login descriptor (ldapId, loginType, b2BAlias) fetched at sign-in, for the passcode step. */
export const LOGIN_DESCRIPTOR_KEY = 'loginDescriptor';
/** A message the logout screen shows once (new-PIN failures, spec §8), stored as its bundle key. */
export const LOGOUT_MESSAGE_KEY = 'logoutMessage';

export function sessionGet(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function sessionSet(key: string, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // storage unavailable: the portal works without it, only caching is lost
  }
}

export function sessionRemove(key: string): void {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // ignore
  }
}

/** Spec §4: sign-in clears session storage; the chosen co-brand is kept. */
export function clearSessionKeepingCobrand(): void {
  const cobrand = sessionGet(COBRAND_KEY);
  try {
    window.sessionStorage.clear();
  } catch {
    // ignore
  }
  if (cobrand) sessionSet(COBRAND_KEY, cobrand);
}

export function localGet(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function localSet(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // storage unavailable: the pending PIN is then only kept in memory
  }
}

export function localRemove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // ignore
  }
}
