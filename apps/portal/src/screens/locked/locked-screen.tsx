import { isLockedReason, LIMITS, LOCKED_REASONS } from '@cardportal/domain';
import { useState } from 'react';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr } from '../../i18n/i18n.ts';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { navigate } from '../../router/router.tsx';

/**
 * Temporarily locked (spec §2): the maximum login attempts were reached. With `reason` (the sign-in
 * answers it only to whoever gave the right password: packages/domain locked-screen.ts) the catalogue's
 * message of that reason instead: an expired temporary password, an inactive company or issuer.
 */
export default function LockedScreen() {
  const portal = usePortal();
  const { t, appName } = portal;
  const [reason] = useState(() =>
    typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('reason'),
  );
  // A single sign-on that failed is no lock: the sign-in's failure heading, not the lock's.
  useDocumentTitle(
    t('common.pageTitle', reason === 'sso' ? t('signin.error.loginFailed') : t('locked.title'), appName),
  );
  const returnLabel = t('locked.returnToLogin');
  return (
    <div className="cp-card">
      <ScreenHeading>{reason === 'sso' ? t('signin.error.loginFailed') : t('locked.heading')}</ScreenHeading>
      <p className="cp-text" id="locked-message">
        {isLockedReason(reason)
          ? t(LOCKED_REASONS[reason])
          : t('locked.message', LIMITS.maxFailedAttempts, LIMITS.lockMinutes)}
      </p>
      <button
        id="return-to-login"
        type="button"
        className="cp-button cp-button--primary"
        aria-label={nameOr(returnLabel, 'locked.returnToLogin')}
        onClick={() => navigate(screenUrl(portal, 'signin'))}
      >
        {returnLabel}
      </button>
    </div>
  );
}
