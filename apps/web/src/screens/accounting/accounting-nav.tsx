import { may } from '@cardportal/domain';
import { NavLink } from 'react-router';
import { useApp } from '../../lib/app-context.tsx';

/** The accounting set-up's parts: codes (with their values), schemes (and the groups'), subsets, mass allocation. */
export function AccountingNav({ number }: { number: string }) {
  const { t, user } = useApp();
  const base = `/organisation/${encodeURIComponent(number)}`;
  return (
    <nav className="app-subnav" aria-label={t('app.accounting.nav.label')}>
      <ul>
        <li>
          <NavLink to={`${base}/accounting-codes`} id="accounting-nav-codes">
            {t('app.accounting.nav.codes')}
          </NavLink>
        </li>
        <li>
          <NavLink to={`${base}/accounting-schemes`} id="accounting-nav-schemes">
            {t('app.accounting.nav.schemes')}
          </NavLink>
        </li>
        <li>
          <NavLink to={`${base}/accounting-subsets`} id="accounting-nav-subsets">
            {t('app.accounting.nav.subsets')}
          </NavLink>
        </li>
        <li>
          <NavLink to={`${base}/custom-fields`} id="accounting-nav-custom">
            {t('app.accounting.nav.custom')}
          </NavLink>
        </li>
        {may({ type: user.userType }, 'massAllocateTransactions') ? (
          <li>
            <NavLink to={`${base}/mass-allocation`} id="accounting-nav-mass">
              {t('app.accounting.nav.mass')}
            </NavLink>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
