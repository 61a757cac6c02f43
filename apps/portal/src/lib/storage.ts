/** Session/local storage that never throws (storage can be disabled or full). */

export const COBRAND_KEY = 'COBRAND';
export const USER_ID_KEY = 'userId';
export const SET_PIN_KEY = 'setPin';

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

export function localRemove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // ignore
  }
}
