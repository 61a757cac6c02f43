import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { getExpenseSettings } from '../../api/expenses.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { useApp } from '../../lib/app-context.tsx';

/** Query keys of a company's expense configuration: every change invalidates the company's. */
export const expenseKeys = {
  company: (number: string) => ['expense-settings', number] as const,
};

/** The company's expense configuration (one answer for all its parts, each bounded). */
export function useExpenseSettings(number: string) {
  return useQuery({
    queryKey: expenseKeys.company(number),
    queryFn: ({ signal }) => getExpenseSettings(number, signal),
  });
}

/** The expense set-up's parts: types, policy, rates (mileage and tax), approvals. */
function ExpenseNav({ number }: { number: string }) {
  const { t } = useApp();
  const base = `/organisation/${encodeURIComponent(number)}/expenses`;
  const parts = [
    ['types', 'types'],
    ['policy', 'policy'],
    ['rates', 'rates'],
    ['approvals', 'approvals'],
    ['reports', 'reports'],
  ] as const;
  return (
    <nav className="app-subnav" aria-label={t('app.expenses.nav.label')}>
      <ul>
        {parts.map(([path, key]) => (
          <li key={path}>
            <NavLink to={`${base}/${path}`} id={`expenses-nav-${path}`}>
              {t(`app.expenses.nav.${key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The head every expense set-up screen shares: its heading, the company's tabs and the set-up's parts,
 * what the screen is for, the system administrator's read-only notice and a refusal to load
 * (`{idPrefix}-error`); each list's own refusals and status line are its (RecordsSection).
 */
export function ExpensePage({
  number,
  idPrefix,
  heading,
  intro,
  readOnly,
  problem,
  children,
}: {
  number: string;
  idPrefix: string;
  heading: string;
  intro: string;
  readOnly: boolean;
  /** The configuration's refusal to load (a message key), or undefined. */
  problem: string | undefined;
  children: ReactNode;
}) {
  const { t, problemText } = useApp();
  return (
    <>
      <h1>{heading}</h1>
      <CompanyTabs number={number} />
      <ExpenseNav number={number} />
      <p>{intro}</p>
      {readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id={`${idPrefix}-error`} message={problem ? problemText(problem) : undefined} />
      {children}
    </>
  );
}
