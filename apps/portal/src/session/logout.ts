import { heraclesLogout } from '../api/heracles-logout.ts';
import { browser } from '../lib/browser.ts';
import { safeRedirect } from '../lib/redirect.ts';
import { LOGOUT_MESSAGE_KEY, sessionSet } from '../lib/storage.ts';

/**
 * Ends the session and leaves for the logout screen: `GET /heracles/logout`, then the URL it answers
 * (only a same-origin path of ours); when the call fails or answers something else, `fallbackUrl`
 * (the logout screen of the co-brand). `messageKey` is a bundle key the logout screen shows once.
 */
export async function logoutAndLeave(fallbackUrl: string, messageKey?: string): Promise<void> {
  if (messageKey) sessionSet(LOGOUT_MESSAGE_KEY, messageKey);
  let target: string | null = null;
  try {
    target = safeRedirect(await heraclesLogout());
  } catch {
    // the session may be gone already: the logout screen still says so
  }
  browser.assign(target ?? fallbackUrl);
}
