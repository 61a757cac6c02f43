import type { LogoutLabels } from '@cardportal/domain';
import { useEffect, useState } from 'react';
import { requestVoid } from '../../api/client.ts';
import { getExternalLogoutUrl } from '../../api/external-logout-url.ts';
import { getLogoutLabels } from '../../api/logout-labels.ts';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr, type TKey } from '../../i18n/i18n.ts';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { browser } from '../../lib/browser.ts';
import { readCookie, SSO_COOKIE } from '../../lib/cookies.ts';
import { LOGOUT_MESSAGE_KEY, sessionGet, sessionRemove } from '../../lib/storage.ts';
import { isAllowedExternalTarget, isSameOriginPath } from '../../lib/urls.ts';

/**
 * Messages another screen may leave for this one (sessionStorage `logoutMessage`, spec §8: the new-PIN
 * failures). Stored as a bundle key and shown only when it is one of these, once.
 */
const LOGOUT_MESSAGES: readonly TKey[] = ['newPin.error.serverDown', 'newPin.error.generic'];

function isLogoutMessage(value: string | null): value is TKey {
  return value !== null && (LOGOUT_MESSAGES as readonly string[]).includes(value);
}

type Loaded = { labels: Partial<LogoutLabels> | null };

/**
 * Spec §4: load the labels, call the external logout URL (only a same-origin path is followed), then
 * show the page. Failures of either call are not shown: the page says the user is logged out.
 */
async function runLogout(cobrandHost: string, locale: string, signal: AbortSignal): Promise<Loaded> {
  const labels = await getLogoutLabels(cobrandHost, locale, signal).catch(() => null);
  try {
    const url = await getExternalLogoutUrl(signal);
    if (isSameOriginPath(url)) await requestVoid(url, { signal });
  } catch {
    // nothing to add: the session may already be over
  }
  return { labels };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export default function LogoutScreen() {
  const portal = usePortal();
  const { t, cobrand, cobrandName, appName, locale } = portal;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [messageKey] = useState(() => {
    const stored = sessionGet(LOGOUT_MESSAGE_KEY);
    return isLogoutMessage(stored) ? stored : null;
  });
  // shown once: removed after it was read (an effect, so StrictMode's double render still sees it)
  useEffect(() => sessionRemove(LOGOUT_MESSAGE_KEY), []);
  useDocumentTitle(t('common.pageTitle', t('logout.title'), appName));

  useEffect(() => {
    const controller = new AbortController();
    void runLogout(cobrandName, locale, controller.signal).then((result) => {
      if (!controller.signal.aborted) setLoaded(result);
    });
    return () => controller.abort();
  }, [cobrandName, locale]);

  if (!loaded) {
    return (
      <div className="cp-card" aria-busy="true">
        <p className="cp-loading" role="status">
          {t('common.loading')}
        </p>
      </div>
    );
  }

  const labels = loaded.labels;
  const message = text(labels?.['ng.you.have.been.logged.out']) || t('logout.loggedOut');
  const returnLabel = text(labels?.['ng.return.to.login.screen']) || t('logout.returnToLogin');
  // An https URL, or one of our paths (a provider's end of session, /sdportal/sso/{key}/logout).
  const fssoLogoutUrl = [labels?.fssoLogoutUrl, cobrand?.fssoLogoutUrl].find(isAllowedExternalTarget);
  const ssoUser = readCookie(SSO_COOKIE) === 'true';
  // SSO users get the button only when a federated logout URL exists, and it leads there.
  const target = ssoUser ? fssoLogoutUrl : screenUrl(portal, 'signin');

  return (
    <div className="cp-card">
      <ScreenHeading>{message}</ScreenHeading>
      {messageKey ? (
        <p id="logout-message" className="cp-notice" role="status">
          {t(messageKey)}
        </p>
      ) : null}
      <p className="cp-text">{t('logout.securityAdvice')}</p>
      {target ? (
        <button
          id="return-to-login"
          type="button"
          className="cp-button cp-button--primary"
          aria-label={nameOr(returnLabel, 'logout.returnToLogin')}
          onClick={() => browser.assign(target)}
        >
          {returnLabel}
        </button>
      ) : null}
    </div>
  );
}
