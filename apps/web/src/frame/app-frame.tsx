import { SessionExpiryWarning, type SessionWarningContent } from '@cardportal/ui';
import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { getJson } from '../api/client.ts';
import { useApp } from '../lib/app-context.tsx';
import { logout } from '../lib/session.ts';
import { AccessAsBanner } from './access-as-banner.tsx';
import { AriaProvider } from './aria/aria-provider.tsx';
import { GlobalSearch } from './global-search.tsx';
import {
  mayUseAudit,
  mayUseExpenseReports,
  mayUseIssuers,
  mayUseMyCards,
  mayUseOrganisation,
  mayUsePeople,
  mayUseRoles,
  mayUseTransactions,
} from './permissions.ts';

/**
 * The application's frame: skip link, banner with the co-brand's logo, search and logout, navigation
 * by feature (only what the user's type may use), the main landmark, footer and the session warning.
 * On every route change focus moves to the new screen's heading.
 */
export function AppFrame() {
  const { t, user, cobrand, logo, languageTag } = useApp();
  const [leaving, setLeaving] = useState(false);
  // Small screens: the navigation, search and logout fold into a menu (issue 20 item 4).
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);
  const people = mayUsePeople(user.userType);
  const organisation = mayUseOrganisation(user.userType);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each navigation folds the menu again
  useEffect(() => setMenuOpen(false), [location.pathname]);
  // Escape folds an open menu and gives focus back to its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      document.getElementById('app-menu-button')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation (pathname changes)
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const main = mainRef.current;
    if (!main) return;
    // The screen may still be loading (lazy route): focus its heading once it is there.
    let tries = 0;
    const focus = () => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (heading) {
        heading.tabIndex = -1;
        heading.focus();
      } else if (tries++ < 20) timer = window.setTimeout(focus, 50);
      else main.focus();
    };
    let timer = window.setTimeout(focus, 0);
    return () => window.clearTimeout(timer);
  }, [location.pathname]);

  const leave = () => {
    setLeaving(true);
    void logout(user);
  };

  return (
    <AriaProvider locale={languageTag}>
      <a className="skip-link" href="#main">
        {t('common.skipToMain')}
      </a>
      <div className="app-frame" data-menu-open={menuOpen ? '' : undefined}>
        <header className="app-header">
          {logo ? <img className="app-logo" src={logo} alt={cobrand?.appName ?? ''} /> : null}
          <span className="app-name">{cobrand?.appName || t('common.defaultAppName')}</span>
          <button
            id="app-menu-button"
            type="button"
            className="app-menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="app-header-tools app-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {t('app.nav.menu')}
          </button>
          <div className="app-header__tools" id="app-header-tools">
            {people ? <GlobalSearch /> : null}
            <button
              id="logout-button"
              type="button"
              className="app-logout"
              disabled={leaving}
              onClick={leave}
            >
              {t('app.logout')}
            </button>
          </div>
        </header>
        {/* A link taken folds the menu at once (the next screen may still be loading). */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the links inside take the keyboard; this only listens */}
        <nav
          className="app-nav"
          id="app-nav"
          aria-label={t('app.nav.label')}
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) setMenuOpen(false);
          }}
        >
          <ul>
            <li>
              <NavLink to="/" end>
                {t('app.nav.home')}
              </NavLink>
            </li>
            {people ? (
              <li>
                <NavLink to="/people">{t('app.nav.people')}</NavLink>
              </li>
            ) : null}
            {organisation ? (
              <li>
                <NavLink to="/organisation">{t('app.nav.organisation')}</NavLink>
              </li>
            ) : null}
            {mayUseIssuers(user.userType) ? (
              <li>
                <NavLink to="/issuers">{t('app.nav.issuers')}</NavLink>
              </li>
            ) : null}
            {mayUseTransactions(user.userType) ? (
              <li>
                <NavLink to="/transactions">{t('app.nav.transactions')}</NavLink>
              </li>
            ) : null}
            {mayUseExpenseReports(user.userType) ? (
              <li>
                <NavLink to="/expense-reports">{t('app.nav.expenseReports')}</NavLink>
              </li>
            ) : null}
            <li>
              <NavLink to="/expense-approvals">{t('app.nav.expenseApprovals')}</NavLink>
            </li>
            {mayUseMyCards(user.userType) ? (
              <li>
                <NavLink to="/my-cards">{t('app.nav.myCards')}</NavLink>
              </li>
            ) : null}
            {mayUseRoles(user.userType) ? (
              <li>
                <NavLink to="/roles">{t('app.nav.roles')}</NavLink>
              </li>
            ) : null}
            {mayUseAudit(user.userType) ? (
              <li>
                <NavLink to="/audit">{t('app.nav.audit')}</NavLink>
              </li>
            ) : null}
            <li>
              <NavLink to="/profile">{t('app.nav.profile')}</NavLink>
            </li>
          </ul>
        </nav>
      </div>
      <AccessAsBanner />
      <main id="main" className="app-main" tabIndex={-1} ref={mainRef}>
        <Outlet />
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
        onLogout={leave}
        fallback={{
          sessionExpireWarningBoxTitle: t('sessionExpire.title'),
          generalSessionAboutToExpireMessage: t('sessionExpire.message'),
          sessionExpireContinueButtonLabel: t('sessionExpire.continue'),
          sessionExpireLogoutButtonLabel: t('sessionExpire.logout'),
        }}
      />
    </AriaProvider>
  );
}
