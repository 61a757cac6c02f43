import { screenUrl, usePortal } from '../../app/portal-context.tsx';
import { ScreenHeading, useDocumentTitle } from '../../layout/screen-heading.tsx';
import { Link } from '../../router/router.tsx';

/** Any other path under the portal (spec §2, plain not-found reading). */
export default function NotFoundScreen() {
  const portal = usePortal();
  const { t, appName } = portal;
  useDocumentTitle(t('common.pageTitle', t('notFound.title'), appName));
  return (
    <div className="cp-card">
      <ScreenHeading id="not-found">{t('notFound.heading')}</ScreenHeading>
      <p className="cp-text">{t('notFound.message')}</p>
      <p className="cp-text">
        <Link to={screenUrl(portal, 'signin')}>{t('notFound.signinLink') || 'notFound.signinLink'}</Link>
      </p>
    </div>
  );
}
