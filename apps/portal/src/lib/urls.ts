/**
 * The page's origin. In a server render there is no window; any origin then gives the same answers
 * below (a path that is not `//host` nor `\` stays on whatever origin it is resolved against).
 */
const pageOrigin = (): string =>
  typeof window === 'undefined' ? 'http://server-render.invalid' : window.location.origin;

/** A path on our own origin (`/x`, not `//host` nor `\`): safe to fetch or navigate to. */
export function isSameOriginPath(target: unknown, origin: string = pageOrigin()): target is string {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return false;
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return false;
  try {
    return new URL(target, origin).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

/** An absolute https URL without whitespace or markup characters. */
export function isHttpsUrl(target: unknown): target is string {
  if (typeof target !== 'string' || !/^https:\/\/[^\s<>"'\\]+$/i.test(target)) return false;
  try {
    return new URL(target).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Where a co-brand may send the browser: an https URL or one of our own paths. */
export function isAllowedExternalTarget(target: unknown): target is string {
  return isHttpsUrl(target) || isSameOriginPath(target);
}

/** rel for a co-brand link: cross-site https links leak neither the opener nor the referrer. */
export function relFor(url: string): string | undefined {
  return isHttpsUrl(url) ? 'noopener noreferrer' : undefined;
}
