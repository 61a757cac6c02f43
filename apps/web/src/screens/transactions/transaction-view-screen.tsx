import type { TransactionStep } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { AllocationPanel } from './allocation-panel.tsx';
import { CustomFieldsPanel } from './custom-fields-panel.tsx';
import { DisputePanel } from './dispute-panel.tsx';
import { SplitPanel } from './split-panel.tsx';
import { TransactionStatusPill } from './transaction-columns.tsx';
import { transactionQuery, useTransactionStep } from './transactions-queries.ts';

/**
 * One transaction: merchant, dates, amount and tax in the currency's decimals, the card masked, its
 * status — and the steps of its life the user may take now (review, approve, lock: the server says
 * which, by type, role permission, program option and status).
 */
export function TransactionViewScreen() {
  const { t, format, problemText } = useApp();
  const { id = '' } = useParams();
  const query = useQuery(transactionQuery(id));
  const tx = query.data;
  usePageTitle(t('app.transactions.view.heading', tx?.merchantName ?? ''));
  const takeStep = useTransactionStep(id);
  const [done, setDone] = useState<TransactionStep | undefined>();
  const failed = query.isError
    ? problemOf(query.error)
    : takeStep.isError
      ? problemOf(takeStep.error)
      : undefined;
  const go = (step: TransactionStep) => {
    setDone(undefined);
    takeStep.mutate(step, { onSuccess: () => setDone(step) });
  };
  return (
    <>
      <h1>{t('app.transactions.view.heading', tx?.merchantName ?? '')}</h1>
      <p>
        <Link to="/transactions">{t('app.transactions.view.back')}</Link>
      </p>
      <ErrorSummary id="transaction-error" message={failed ? problemText(failed) : undefined} />
      {query.isLoading ? <p>{t('common.loading')}</p> : null}
      <div aria-live="polite" className="app-live">
        {done ? (
          <p className="app-done" id="transaction-done">
            {t(`app.transactions.done.${done}`)}
          </p>
        ) : null}
      </div>
      {tx && tx.steps.length > 0 ? (
        <section aria-labelledby="transaction-steps-heading" className="app-section">
          <h2 id="transaction-steps-heading">{t('app.transactions.steps.heading')}</h2>
          <p className="app-actions">
            {tx.steps.map((step) => (
              <button
                key={step}
                type="button"
                className="app-button"
                id={`transaction-${step}`}
                disabled={takeStep.isPending}
                onClick={() => go(step)}
              >
                {t(`app.transactions.step.${step}`)}
              </button>
            ))}
          </p>
        </section>
      ) : null}
      {tx ? (
        <dl className="app-facts" id="transaction-facts">
          <dt>{t('app.transactions.field.amount')}</dt>
          <dd id="transaction-amount">
            {format.money(tx.amount.minor, tx.amount.currency, tx.amount.exponent)}
          </dd>
          <dt>{t('app.transactions.field.tax')}</dt>
          <dd>{format.money(tx.tax.minor, tx.tax.currency, tx.tax.exponent)}</dd>
          <dt>{t('app.transactions.field.status')}</dt>
          <dd id="transaction-status">
            <TransactionStatusPill status={tx.status} t={t} />
            {tx.exported ? ` ${t('app.transactions.exported')}` : ''}
            {tx.disputed ? ` ${t('app.transactions.disputed')}` : ''}
          </dd>
          <dt>{t('app.transactions.field.date')}</dt>
          <dd>{format.date(tx.transactionDate)}</dd>
          <dt>{t('app.transactions.field.postingDate')}</dt>
          <dd>{format.date(tx.postingDate)}</dd>
          <dt>{t('app.transactions.field.merchant')}</dt>
          <dd>
            {tx.merchantName}
            {tx.merchantCity ? `, ${tx.merchantCity}` : ''} ({tx.merchantCountry})
          </dd>
          <dt>{t('app.transactions.field.category')}</dt>
          <dd>
            {t(`app.transactions.category.${tx.category}`)} ({t('app.transactions.field.mcc')} {tx.mcc})
          </dd>
          <dt>{t('app.transactions.field.card')}</dt>
          <dd className="app-mono">{tx.account.maskedNumber}</dd>
          {tx.account.alias !== null ? (
            <>
              <dt>{t('app.transactions.field.alias')}</dt>
              <dd>{tx.account.alias}</dd>
            </>
          ) : (
            <>
              <dt>{t('app.transactions.field.cardholder')}</dt>
              <dd>{tx.account.cardholderName}</dd>
            </>
          )}
          <dt>{t('app.transactions.field.company')}</dt>
          <dd>
            {tx.companyName} ({tx.companyNumber})
          </dd>
          <dt>{t('app.transactions.field.reference')}</dt>
          <dd>{tx.reference}</dd>
        </dl>
      ) : null}
      {tx ? <SplitPanel tx={tx} /> : null}
      {tx ? <AllocationPanel key={`${tx.id}-${tx.splits.length}`} txId={String(tx.id)} /> : null}
      {tx ? <CustomFieldsPanel txId={String(tx.id)} /> : null}
      {tx ? <DisputePanel tx={tx} /> : null}
    </>
  );
}
