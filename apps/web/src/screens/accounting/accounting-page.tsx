import { ErrorSummary } from '@cardportal/ui';
import type { ReactNode } from 'react';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { useApp } from '../../lib/app-context.tsx';
import { AccountingNav } from './accounting-nav.tsx';

/**
 * The head every accounting set-up screen shares: its heading, the company's tabs and the set-up's parts,
 * what the screen is for, the read-only notice of the system administrator, the refusal of the last
 * action (`{idPrefix}-error`) and what it did (`{idPrefix}-done`, a status line).
 */
export function AccountingPage({
  number,
  idPrefix,
  heading,
  intro,
  readOnly,
  problem,
  done,
  children,
}: {
  number: string;
  idPrefix: string;
  heading: string;
  intro?: ReactNode;
  readOnly: boolean;
  /** A message key, or undefined. */
  problem: string | undefined;
  /** What the last action did, already in words. */
  done: string | undefined;
  children: ReactNode;
}) {
  const { t, problemText } = useApp();
  return (
    <>
      <h1>{heading}</h1>
      <CompanyTabs number={number} />
      <AccountingNav number={number} />
      {intro}
      {readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id={`${idPrefix}-error`} message={problem ? problemText(problem) : undefined} />
      <p role="status" id={`${idPrefix}-done`} className="app-done">
        {done ?? ''}
      </p>
      {children}
    </>
  );
}
