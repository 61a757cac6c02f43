import { type AccountStatus, mayOnAccounts } from '@cardportal/domain';
import { NavLink } from 'react-router';
import { useApp } from '../../lib/app-context.tsx';

const codeOfError = (error: unknown, fallback = 'error.generic') =>
  error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : fallback;

export { codeOfError };

/** Active / Suspended / Closed as a pill. */
export function AccountStatusPill({ status }: { status: AccountStatus }) {
  const { t } = useApp();
  return (
    <span className={`app-status app-status--${status.toLowerCase()}`}>
      {t(`app.accounts.status.${status}`)}
    </span>
  );
}

/** The company's sections: its view, cardholders, accounts and account groups (what the type may see). */
export function CompanyTabs({ number }: { number: string }) {
  const { t, user } = useApp();
  const base = `/organisation/${encodeURIComponent(number)}`;
  return (
    <nav className="app-tabs" aria-label={t('app.accounts.tabs.label', number)}>
      <ul>
        <li>
          <NavLink to={base} end>
            {t('app.accounts.tabs.company')}
          </NavLink>
        </li>
        <li>
          <NavLink to={`${base}/cardholders`} id="tab-cardholders">
            {t('app.accounts.tabs.cardholders')}
          </NavLink>
        </li>
        <li>
          <NavLink to={`${base}/accounts`} id="tab-accounts">
            {t('app.accounts.tabs.accounts')}
          </NavLink>
        </li>
        {mayOnAccounts(user.userType, 'viewAccountGroups') ? (
          <li>
            <NavLink to={`${base}/account-groups`} id="tab-account-groups">
              {t('app.accounts.tabs.groups')}
            </NavLink>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** Name 1 and name 2 as one line. */
export const fullName = (holder: { name1: string; name2: string } | null | undefined) =>
  holder ? [holder.name1, holder.name2].filter(Boolean).join(' ') : '';
