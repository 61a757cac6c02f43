import {
  type CobrandRecord,
  type CurrentUser,
  DEFAULT_COBRAND,
  isSafeRedirect,
  LOGO_BASE,
  LOGO_EXTENSIONS,
  PORTAL_BASE,
  portalUrl,
  resolveLocale,
  toLanguageTag,
} from '@cardportal/domain';
import type { i18n as I18n } from 'i18next';
import { ApiError, exists, getJson, getText } from '../api/client.ts';
import { loadTexts, textLibrary } from './text.ts';

export interface AppContext {
  user: CurrentUser;
  cobrand: CobrandRecord | null;
  /** The user's texts (i18next): the start namespaces in, the screens' own ones loaded with them. */
  texts: I18n;
  logo: string | null;
}

/** Sends the browser to the portal's sign-in screen of the remembered co-brand. */
export function toSignIn(): void {
  let cobrandHost: string = DEFAULT_COBRAND;
  try {
    cobrandHost = sessionStorage.getItem('COBRAND') ?? DEFAULT_COBRAND;
  } catch {
    // storage unavailable
  }
  location.assign(
    portalUrl('signin', {
      cobrandHost: /^[a-z0-9-]{2,40}$/.test(cobrandHost) ? cobrandHost : DEFAULT_COBRAND,
    }),
  );
}

/** Loads who is signed in, the co-brand and the texts; undefined after redirecting to sign-in. */
export async function loadContext(signal?: AbortSignal): Promise<AppContext | undefined> {
  void textLibrary(); // fetched while /app/api/me answers
  let user: CurrentUser;
  try {
    user = await getJson<CurrentUser>('/app/api/me', signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      toSignIn();
      return undefined;
    }
    throw error;
  }
  const [cobrand, texts] = await Promise.all([
    getJson<CobrandRecord>(`/sdportal/rest/cobrand/${encodeURIComponent(user.cobrand)}`, signal).catch(
      () => null,
    ),
    loadTexts(resolveLocale(user.locale), toLanguageTag(resolveLocale(user.locale))),
  ]);
  let logo: string | null = null;
  for (const ext of LOGO_EXTENSIONS) {
    const url = `${LOGO_BASE}${user.cobrand}.${ext}`;
    if (await exists(url)) {
      logo = url;
      break;
    }
  }
  return { user, cobrand, texts, logo };
}

/** Ends the session on the server and goes to the portal's logout screen. */
export async function logout(user: CurrentUser): Promise<void> {
  let target = portalUrl('logout', { cobrandHost: user.cobrand, locale: user.locale });
  try {
    const answered = (await getText('/heracles/logout')).trim();
    if (isSafeRedirect(answered, location.origin) && answered.startsWith(PORTAL_BASE)) target = answered;
  } catch {
    // the portal's logout screen ends the session again
  }
  location.assign(target);
}
