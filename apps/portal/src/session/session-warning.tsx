import { SessionExpiryWarning } from '@cardportal/ui';
import { getSessionWarningContent, pingPortal } from '../api/session-expire.ts';
import { screenUrl, usePortal } from '../app/portal-context.tsx';
import { logoutAndLeave } from './logout.ts';

/**
 * The session-expiry warning of the partially signed-in screens (change-password, new-PIN): the
 * server's content for this co-brand, our bundle's `sessionExpire.*` texts where it has none.
 */
export function PortalSessionWarning() {
  const portal = usePortal();
  const { t, cobrandName } = portal;
  return (
    <SessionExpiryWarning
      loadContent={(signal) => getSessionWarningContent(cobrandName, signal)}
      ping={() => pingPortal()}
      onLogout={() => void logoutAndLeave(screenUrl(portal, 'logout'))}
      fallback={{
        sessionExpireWarningBoxTitle: t('sessionExpire.title') || 'sessionExpire.title',
        generalSessionAboutToExpireMessage: t('sessionExpire.message') || 'sessionExpire.message',
        sessionExpireContinueButtonLabel: t('sessionExpire.continue') || 'sessionExpire.continue',
        sessionExpireLogoutButtonLabel: t('sessionExpire.logout') || 'sessionExpire.logout',
      }}
    />
  );
}
