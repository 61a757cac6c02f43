/** URL map of DESIGN §4. */
export const PORTAL_BASE = '/sdportal/portalstatic/';
export const APP_BASE = '/app/';
export const REST_BASE = '/sdportal/rest/';
export const I18N_BASE = `${PORTAL_BASE}assets/i18n/`;
export const LOGO_BASE = `${PORTAL_BASE}assets/images/logos/`;
export const FOOTER_LOGO_BASE = `${PORTAL_BASE}assets/images/footers/`;
export const LOGO_EXTENSIONS = ['png', 'jpg', 'gif'] as const;

/**
 * Spec §3 `user_id` cookie: the user ID of the last successful sign-in in this browser, which the
 * sign-in form offers again. Path: the portal's pages only (docs/security.md).
 */
export const USER_ID_COOKIE = 'user_id';
export const USER_ID_COOKIE_PATH = '/sdportal/portalstatic';

export const PORTAL_SCREENS = [
  'signin',
  'otp',
  'forgot-password',
  'change-password',
  'new-pin',
  'next-token',
  'logout',
  'locked',
  // Cardholder and company self-registration (issue 18 items 1-2, docs/self-registration.md).
  'register',
  'register-company',
  // New card account applications (issue 18 item 3).
  'apply',
] as const;
export type PortalScreen = (typeof PORTAL_SCREENS)[number];

export function isPortalScreen(value: string): value is PortalScreen {
  return (PORTAL_SCREENS as readonly string[]).includes(value);
}

/** Builds a portal screen URL (path + query) that keeps cobrandHost and locale. */
export function portalUrl(screen: PortalScreen, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(key, value);
  }
  const qs = query.toString();
  return `${PORTAL_BASE}${screen}${qs ? `?${qs}` : ''}`;
}

/**
 * True when `target` is a same-origin path of ours (the portal or the application). Used by the
 * client before it navigates to any URL it was handed, and by the server before it answers one.
 */
export function isSafeRedirect(target: string, origin: string): boolean {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return false;
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return false;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return false;
  }
  if (url.origin !== new URL(origin).origin) return false;
  return url.pathname.startsWith(PORTAL_BASE) || url.pathname.startsWith(APP_BASE);
}
