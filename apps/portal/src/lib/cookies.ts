import { LIMITS } from '@cardportal/domain';

export const LOCALE_COOKIE = 'user_locale';
export const CSRF_COOKIE = 'sec-token';
export const SSO_COOKIE = 'ssoUserCookie';

/** Reads a cookie at call time (never cached: the server rotates some of them). */
export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** Sets a first-party cookie for the whole site, SameSite=Lax, Secure on https. */
export function writeCookie(name: string, value: string, days: number = LIMITS.cookieDays): void {
  const maxAge = Math.round(days * 24 * 60 * 60);
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: plain document.cookie keeps the page budget; Cookie Store API is not in every supported browser
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}`;
}
