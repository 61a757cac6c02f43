import { USER_TYPES } from '@cardportal/domain';
import { SessionExpiryWarning, type SessionWarningContent } from '@cardportal/ui';
import { useState } from 'react';
import { getJson } from '../../api/client.ts';
import type { AppContext } from '../../lib/session.ts';
import { logout } from '../../lib/session.ts';
import { makeT } from '../../lib/text.ts';

/** The application's home for a signed-in user: who they are, their co-brand, and logout. */
export function HomeScreen({ context, languageTag }: { context: AppContext; languageTag: string }) {
  const { user, cobrand, texts, logo } = context;
  const t = makeT(texts);
  const [leaving, setLeaving] = useState(false);
  const appName = cobrand?.appName ?? '';
  const lastLogin = user.lastLoginAt
    ? new Intl.DateTimeFormat(languageTag, { dateStyle: 'long', timeStyle: 'short' }).format(
        new Date(user.lastLoginAt),
      )
    : '';
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.userId;

  return (
    <>
      <a className="skip-link" href="#main">
        {t('common.skipToMain')}
      </a>
      <header className="app-header">
        {logo ? <img className="app-logo" src={logo} alt={appName} /> : null}
        <span className="app-name">{appName}</span>
        <button
          id="logout-button"
          type="button"
          className="app-logout"
          disabled={leaving}
          onClick={() => {
            setLeaving(true);
            void logout(user);
          }}
        >
          {t('app.logout')}
        </button>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <h1 id="welcome">{t('app.welcome', name)}</h1>
        <dl className="app-facts">
          <dt>{t('app.userId')}</dt>
          <dd>{user.userId}</dd>
          <dt>{t('app.userType')}</dt>
          <dd>{t(`app.userType.${user.userType}`) || USER_TYPES[user.userType]}</dd>
          {lastLogin ? (
            <>
              <dt>{t('app.lastLogin')}</dt>
              <dd>{lastLogin}</dd>
            </>
          ) : null}
        </dl>
      </main>
      <footer className="app-footer">{cobrand?.copyrightMessage ?? ''}</footer>
      <SessionExpiryWarning
        idPrefix="app-session"
        loadContent={(signal) =>
          getJson<SessionWarningContent>(
            `/sdportal/rest/sessionExpire/sessionExpireWarningBoxContent.json?cobrandHost=${encodeURIComponent(user.cobrand)}`,
            signal,
          )
        }
        ping={() => getJson('/sdportal/rest/sessionExpire/pingPortal.json')}
        onLogout={() => void logout(user)}
        fallback={{
          sessionExpireWarningBoxTitle: t('sessionExpire.title'),
          generalSessionAboutToExpireMessage: t('sessionExpire.message'),
          sessionExpireContinueButtonLabel: t('sessionExpire.continue'),
          sessionExpireLogoutButtonLabel: t('sessionExpire.logout'),
        }}
      />
    </>
  );
}
