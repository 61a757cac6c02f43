import {
  type CobrandRecord,
  type CurrentUser,
  DEFAULT_COBRAND,
  isSafeRedirect,
  LOGO_BASE,
  LOGO_EXTENSIONS,
  PORTAL_BASE,
  portalUrl,
} from '@cardportal/domain';
import { ApiError, exists, getJson, getText } from '../api/client.ts';

export interface AppContext {
  user: CurrentUser;
  cobrand: CobrandRecord | null;
  texts: Record<string, string>;
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

const bundle = (locale: string, name: string, signal?: AbortSignal) =>
  getJson<Record<string, string>>(
    `${PORTAL_BASE}assets/i18n/${encodeURIComponent(locale)}/${name}.json`,
    signal,
  ).catch(() => ({}) as Record<string, string>);

/** The user's labels (`app.*`, `common.*`) and messages (`validation.*`, `catalogue.*`) as one map. */
async function loadBundles(locale: string, signal?: AbortSignal): Promise<Record<string, string>> {
  const [messages, labels] = await Promise.all([
    bundle(locale, 'Messages', signal),
    bundle(locale, 'PortalLabels', signal),
  ]);
  return { ...messages, ...labels };
}

/** Loads who is signed in, the co-brand and the texts; undefined after redirecting to sign-in. */
export async function loadContext(signal?: AbortSignal): Promise<AppContext | undefined> {
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
    loadBundles(user.locale, signal),
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
