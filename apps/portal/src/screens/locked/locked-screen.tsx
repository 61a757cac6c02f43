import { LIMITS } from '@cardportal/domain';
import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { nameOr } from '../../i18n/i18n.ts';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { navigate } from '../../router/router.tsx';

/** Temporarily locked (spec §2): the maximum login attempts were reached. */
export default function LockedScreen() {
  const portal = usePortal();
  const { t, appName } = portal;
  useDocumentTitle(t('common.pageTitle', t('locked.title'), appName));
  const returnLabel = t('locked.returnToLogin');
  return (
    <div className="cp-card">
      <ScreenHeading>{t('locked.heading')}</ScreenHeading>
      <p className="cp-text">{t('locked.message', LIMITS.maxFailedAttempts, LIMITS.lockMinutes)}</p>
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
