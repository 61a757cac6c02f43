import { DISPUTE_LIMITS, decimalOfMinor, minorOfDecimal, type TransactionDetail } from '@cardportal/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextAreaField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useApp } from '../../lib/app-context.tsx';
import { disputeReasonsForQuery, useDispute } from './transactions-queries.ts';

/**
 * A transaction's dispute (issue 15 item 6): the dispute as filed — reason, amount, explanation, when and
 * by whom, its status — or, when the user may file one, the form: a reason of the card issuer's list,
 * the amount disputed (the whole amount unless changed), an explanation of at most 1024 characters. It
 * says before submission that a dispute cannot be changed afterwards (seed 001 §4).
 */
export function DisputePanel({ tx }: { tx: TransactionDetail }) {
  const { t, format } = useApp();
  const [filing, setFiling] = useState(false);
  const [done, setDone] = useState(false);
  const dispute = tx.dispute;
  if (!dispute && !tx.canDispute) return null;
  return (
    <section aria-labelledby="transaction-dispute-heading" className="app-section" id="transaction-dispute">
      <h2 id="transaction-dispute-heading">{t('app.transactions.dispute.heading')}</h2>
      <div aria-live="polite" className="app-live">
        {done ? (
          <p className="app-done" id="transaction-dispute-done">
            {t('app.transactions.dispute.done')}
          </p>
        ) : null}
      </div>
      {dispute ? (
        <dl className="app-facts" id="transaction-dispute-facts">
          <dt>{t('app.transactions.dispute.status')}</dt>
          <dd id="transaction-dispute-status">{t(`app.transactions.dispute.status.${dispute.status}`)}</dd>
          <dt>{t('app.transactions.dispute.reason')}</dt>
          <dd>
            {dispute.reasonCode} — {dispute.reasonDescription}
          </dd>
          <dt>{t('app.transactions.dispute.amount')}</dt>
          <dd>{format.money(dispute.amount.minor, dispute.amount.currency, dispute.amount.exponent)}</dd>
          <dt>{t('app.transactions.dispute.explanation')}</dt>
          <dd className="app-pre">{dispute.explanation}</dd>
          <dt>{t('app.transactions.dispute.submitted')}</dt>
          <dd>
            {format.dateTime(dispute.submittedAt)}
            {dispute.submittedBy ? ` (${dispute.submittedBy})` : ''}
          </dd>
        </dl>
      ) : filing ? (
        <DisputeForm
          tx={tx}
          onDone={() => {
            setFiling(false);
            setDone(true);
          }}
          onCancel={() => setFiling(false)}
        />
      ) : (
        <p className="app-actions">
          <button
            type="button"
            className="app-button"
            id="transaction-dispute-start"
            onClick={() => setFiling(true)}
          >
            {t('app.transactions.dispute.start')}
          </button>
        </p>
      )}
    </section>
  );
}

function DisputeForm({
  tx,
  onDone,
  onCancel,
}: {
  tx: TransactionDetail;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t, format } = useApp();
  const reasons = useQuery(disputeReasonsForQuery(String(tx.id)));
  const exponent = tx.amount.exponent;
  const whole = BigInt(tx.amount.minor) < 0n ? -BigInt(tx.amount.minor) : BigInt(tx.amount.minor);
  const schema = z.object({
    reason: z.string().min(1, { error: 'dispute.reason.required' }),
    amount: z.string().superRefine((text, ctx) => {
      const parsed = minorOfDecimal(text, exponent);
      if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
      else if (parsed.minor <= 0n) ctx.addIssue({ code: 'custom', message: 'dispute.amount.positive' });
      else if (parsed.minor > whole)
        ctx.addIssue({ code: 'custom', message: 'dispute.amount.exceedsTransaction' });
    }),
    explanation: z
      .string()
      .trim()
      .min(1, { error: 'dispute.explanation.required' })
      .max(DISPUTE_LIMITS.explanationMaxLength, { error: 'dispute.explanation.tooLong' }),
  });
  const form = useAppForm({
    schema,
    defaultValues: { reason: '', amount: decimalOfMinor(whole, exponent), explanation: '' },
  });
  const file = useDispute(String(tx.id));
  return (
    <AppForm
      form={form}
      id="transaction-dispute-form"
      errorId="transaction-dispute-form-error"
      onSubmit={async (values) => {
        await file.mutateAsync({
          reason: values.reason,
          amount: values.amount.trim(),
          explanation: values.explanation,
        });
        onDone();
      }}
    >
      <p className="app-hint" id="transaction-dispute-final">
        {t('app.transactions.dispute.final')}
      </p>
      <SelectField
        control={form.control}
        name="reason"
        id="transaction-dispute-reason"
        label={t('app.transactions.dispute.reason')}
        placeholder={reasons.isLoading ? t('common.loading') : t('app.transactions.dispute.choose')}
        options={(reasons.data?.rows ?? []).map((r) => ({
          value: r.code,
          label: `${r.code} — ${r.description}`,
        }))}
      />
      <TextField
        control={form.control}
        name="amount"
        id="transaction-dispute-amount"
        label={t('app.transactions.dispute.amount')}
        hint={t(
          'app.transactions.dispute.amountHint',
          format.money(whole.toString(), tx.amount.currency, exponent),
        )}
        inputMode="decimal"
        autoComplete="off"
      />
      <TextAreaField
        control={form.control}
        name="explanation"
        id="transaction-dispute-explanation"
        label={t('app.transactions.dispute.explanation')}
        hint={t('app.transactions.dispute.explanationHint', String(DISPUTE_LIMITS.explanationMaxLength))}
        maxLength={DISPUTE_LIMITS.explanationMaxLength}
      />
      <p className="app-actions">
        <SubmitButton form={form} id="transaction-dispute-submit">
          {t('app.transactions.dispute.submit')}
        </SubmitButton>
        <button type="button" className="app-button" id="transaction-dispute-cancel" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </p>
    </AppForm>
  );
}
