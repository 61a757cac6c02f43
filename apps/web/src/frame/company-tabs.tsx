import { may } from '@cardportal/domain';
import { NavLink } from 'react-router';
import { useApp } from '../lib/app-context.tsx';

/** The company's sections: its view, cardholders, accounts, account groups, real cards, card applications, accounting codes and expense settings (what the type may see). */
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
        {may({ type: user.userType }, 'viewAccountGroups') ? (
          <li>
            <NavLink to={`${base}/account-groups`} id="tab-account-groups">
              {t('app.accounts.tabs.groups')}
            </NavLink>
          </li>
        ) : null}
        {may({ type: user.userType }, 'viewRealCards') ? (
          <li>
            <NavLink to={`${base}/real-cards`} id="tab-real-cards">
              {t('app.accounts.tabs.realCards')}
            </NavLink>
          </li>
        ) : null}
        {may({ type: user.userType }, 'viewCardApplications') ? (
          <li>
            <NavLink to={`${base}/card-applications`} id="tab-card-applications">
              {t('app.cardApplications.link')}
            </NavLink>
          </li>
        ) : null}
        {may({ type: user.userType }, 'viewAccountingCodes') ? (
          <li>
            <NavLink to={`${base}/accounting-codes`} id="tab-accounting-codes">
              {t('app.accounts.tabs.accounting')}
            </NavLink>
          </li>
        ) : null}
        {may({ type: user.userType }, 'viewExpenseSettings') ? (
          <li>
            <NavLink to={`${base}/expenses`} id="tab-expenses">
              {t('app.accounts.tabs.expenses')}
            </NavLink>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
