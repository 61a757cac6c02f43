import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { mayCreateUsers, mayUsePeople, mayUseTransactions } from '../../frame/permissions.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { displayName, useApp } from '../../lib/app-context.tsx';
import { readRecent } from '../../lib/recent.ts';

/** The spend picture's code (and its chart library) loads on its own, after the page: the entry stays small. */
const SpendPicture = lazy(() =>
  import('../transactions/index.ts').then((m) => ({ default: m.SpendPicture })),
);

/** The application's home: who is signed in, quick links by what the type may use, recently viewed. */
export function HomeScreen() {
  const { t, user, format } = useApp();
  usePageTitle(t('app.nav.home'));
  const recent = readRecent(user.userId);
  const lastLogin = user.lastLoginAt ? format.longDateTime(user.lastLoginAt) : '';
  const people = mayUsePeople(user.userType);

  return (
    <>
      <h1 id="welcome">{t('app.welcome', displayName(user))}</h1>
      <dl className="app-facts">
        <dt>{t('app.userId')}</dt>
        <dd>{user.userId}</dd>
        <dt>{t('app.userType')}</dt>
        <dd>{t(`app.userType.${user.userType}`)}</dd>
        {lastLogin ? (
          <>
            <dt>{t('app.lastLogin')}</dt>
            <dd>{lastLogin}</dd>
          </>
        ) : null}
      </dl>
      {mayUseTransactions(user.userType) ? (
        <section aria-labelledby="spend-heading" className="app-panel app-panel--wide">
          <h2 id="spend-heading">{t('app.transactions.spend.heading')}</h2>
          <Suspense fallback={<p>{t('common.loading')}</p>}>
            <SpendPicture />
          </Suspense>
          <p>
            <Link to="/transactions" id="home-transactions-link">
              {t('app.transactions.spend.all')}
            </Link>
          </p>
        </section>
      ) : null}
      <div className="app-panels">
        <section aria-labelledby="quick-links-heading" className="app-panel">
          <h2 id="quick-links-heading">{t('app.home.quickLinks')}</h2>
          <ul id="quick-links">
            {people ? (
              <li>
                <Link to="/people">{t('app.home.searchPeople')}</Link>
              </li>
            ) : null}
            {mayCreateUsers(user.userType) ? (
              <li>
                <Link to="/people/new">{t('app.people.create.heading')}</Link>
              </li>
            ) : null}
            <li>
              <Link to="/profile">{t('app.nav.profile')}</Link>
            </li>
          </ul>
        </section>
        <section aria-labelledby="recent-heading" className="app-panel">
          <h2 id="recent-heading">{t('app.home.recent')}</h2>
          {recent.length === 0 ? (
            <p>{t('app.home.recentEmpty')}</p>
          ) : (
            <ul id="recent-items">
              {recent.map((item) => (
                <li key={`${item.kind}:${item.id}`}>
                  <Link to={`/people/${encodeURIComponent(item.id)}`}>
                    {item.label} ({item.id})
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
