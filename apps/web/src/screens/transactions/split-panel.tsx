import {
  checkSplit,
  decimalOfMinor,
  minorOfDecimal,
  SPLIT_LIMITS,
  type SplitLine,
  splitEvenly,
  type TransactionDetail,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { FieldArrayList } from '../../frame/form/field-array.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { useSplit, useUnsplit } from './transactions-queries.ts';

/**
 * A transaction's split (issue 15 item 5): its lines when split, the editor (a field array of 2–100
 * lines, amount, tax and description, in the currency's decimals), and unsplit. The form checks what the
 * server checks (packages/domain checkSplit: each line, then the totals — "Split amount does not total
 * up") and shows what is left to allocate as the user types; the server decides.
 */

interface LineText {
  amount: string;
  tax: string;
  description: string;
}

/** The form's rule, for a transaction of `total` in a currency of `exponent` decimals. */
function splitSchema(total: { amount: bigint; tax: bigint }, exponent: number) {
  return z
    .object({
      lines: z.array(z.object({ amount: z.string(), tax: z.string(), description: z.string() })),
    })
    .superRefine((value, ctx) => {
      const lines: SplitLine[] = [];
      value.lines.forEach((line, index) => {
        const amount = minorOfDecimal(line.amount, exponent);
        const tax = line.tax.trim() === '' ? { minor: 0n } : minorOfDecimal(line.tax, exponent);
        if ('problem' in amount)
          ctx.addIssue({ code: 'custom', path: ['lines', index, 'amount'], message: amount.problem });
        if ('problem' in tax)
          ctx.addIssue({ code: 'custom', path: ['lines', index, 'tax'], message: tax.problem });
        if ('minor' in amount && 'minor' in tax)
          lines.push({ amount: amount.minor, tax: tax.minor, description: line.description.trim() });
      });
      if (lines.length !== value.lines.length) return;
      const checked = checkSplit(total, lines);
      for (const p of checked.lines)
        ctx.addIssue({ code: 'custom', path: ['lines', p.index, p.field], message: p.problem });
      if (checked.problem) ctx.addIssue({ code: 'custom', path: ['lines'], message: checked.problem });
    });
}

const asText = (lines: readonly SplitLine[], exponent: number): LineText[] =>
  lines.map((l) => ({
    amount: decimalOfMinor(l.amount, exponent),
    tax: decimalOfMinor(l.tax, exponent),
    description: l.description,
  }));

export function SplitPanel({ tx }: { tx: TransactionDetail }) {
  const { t, tCount, format, problemText } = useApp();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | undefined>();
  const unsplit = useUnsplit(String(tx.id));
  const money = (minor: string) => format.money(minor, tx.amount.currency, tx.amount.exponent);
  const failed = unsplit.isError ? problemOf(unsplit.error) : undefined;
  const split = tx.splits.length > 0;
  if (!split && !tx.canSplit && !tx.editBlocked) return null;
  return (
    <section aria-labelledby="transaction-split-heading" className="app-section" id="transaction-split">
      <h2 id="transaction-split-heading">{t('app.transactions.split.heading')}</h2>
      <ErrorSummary id="transaction-split-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {done ? (
          <p className="app-done" id="transaction-split-done">
            {done}
          </p>
        ) : null}
      </div>
      {split && !editing ? (
        <TableWrap captionId="transaction-split-caption">
          <table className="app-table" id="transaction-split-lines">
            <caption id="transaction-split-caption">
              {tCount('app.transactions.split.caption', tx.splits.length)}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('app.transactions.split.line')}</th>
                <th scope="col">{t('app.transactions.split.description')}</th>
                <th scope="col" className="app-num">
                  {t('app.transactions.field.amount')}
                </th>
                <th scope="col" className="app-num">
                  {t('app.transactions.field.tax')}
                </th>
              </tr>
            </thead>
            <tbody>
              {tx.splits.map((line) => (
                <tr key={line.line}>
                  <th scope="row">{line.line}</th>
                  <td>{line.description}</td>
                  <td className="app-num">{money(line.amount.minor)}</td>
                  <td className="app-num">{money(line.tax.minor)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      {!split && !editing ? <p>{t('app.transactions.split.none')}</p> : null}
      {tx.editBlocked ? (
        <p className="app-hint" id="transaction-split-blocked">
          {problemText(tx.editBlocked)}
        </p>
      ) : null}
      {editing ? (
        <SplitEditor
          tx={tx}
          onDone={(count) => {
            setEditing(false);
            setDone(tCount('app.transactions.split.done', count));
          }}
          onCancel={() => setEditing(false)}
        />
      ) : tx.canSplit ? (
        <p className="app-actions">
          <button
            type="button"
            className="app-button"
            id="transaction-split-edit"
            onClick={() => {
              setDone(undefined);
              setEditing(true);
            }}
          >
            {split ? t('app.transactions.split.change') : t('app.transactions.split.start')}
          </button>
          {split ? (
            <button
              type="button"
              className="app-button"
              id="transaction-unsplit"
              disabled={unsplit.isPending}
              onClick={() => setConfirming(true)}
            >
              {t('app.transactions.split.unsplit')}
            </button>
          ) : null}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        idPrefix="transaction-unsplit-confirm"
        title={t('app.transactions.split.unsplitTitle')}
        body={t('app.transactions.split.unsplitBody')}
        confirmLabel={t('app.transactions.split.unsplit')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          setDone(undefined);
          unsplit.mutate(undefined, { onSuccess: () => setDone(t('app.transactions.split.undone')) });
        }}
      />
    </section>
  );
}

function SplitEditor({
  tx,
  onDone,
  onCancel,
}: {
  tx: TransactionDetail;
  onDone: (count: number) => void;
  onCancel: () => void;
}) {
  const { t, format } = useApp();
  const exponent = tx.amount.exponent;
  const total = { amount: BigInt(tx.amount.minor), tax: BigInt(tx.tax.minor) };
  const start: SplitLine[] =
    tx.splits.length > 0
      ? tx.splits.map((l) => ({
          amount: BigInt(l.amount.minor),
          tax: BigInt(l.tax.minor),
          description: l.description,
        }))
      : splitEvenly(total.amount, total.tax, SPLIT_LIMITS.minLines);
  const form = useAppForm({
    schema: splitSchema(total, exponent),
    defaultValues: { lines: asText(start, exponent) },
  });
  const save = useSplit(String(tx.id));
  const watched = useWatch({ control: form.control, name: 'lines' }) as LineText[] | undefined;
  const allocated = (watched ?? []).reduce((sum, line) => {
    const parsed = minorOfDecimal(line.amount ?? '', exponent);
    return 'minor' in parsed ? sum + parsed.minor : sum;
  }, 0n);
  const left = total.amount - allocated;
  const shareEqually = () => {
    const count = form.getValues('lines').length;
    if (count < 1) return;
    const even = splitEvenly(total.amount, total.tax, count);
    even.forEach((line, i) => {
      form.setValue(`lines.${i}.amount`, decimalOfMinor(line.amount, exponent), { shouldValidate: false });
      form.setValue(`lines.${i}.tax`, decimalOfMinor(line.tax, exponent), { shouldValidate: false });
    });
  };
  return (
    <AppForm
      form={form}
      id="transaction-split-form"
      errorId="transaction-split-form-error"
      onSubmit={async (values) => {
        await save.mutateAsync({
          lines: values.lines.map((l) => ({
            amount: l.amount.trim(),
            tax: l.tax.trim(),
            description: l.description.trim(),
          })),
        });
        onDone(values.lines.length);
      }}
    >
      <p className="app-hint" id="transaction-split-total">
        {t(
          'app.transactions.split.total',
          format.money(tx.amount.minor, tx.amount.currency, exponent),
          format.money(tx.tax.minor, tx.tax.currency, exponent),
        )}
      </p>
      <FieldArrayList
        control={form.control}
        name="lines"
        idPrefix="split-line"
        legend={t('app.transactions.split.lines')}
        addLabel={t('app.transactions.split.add')}
        removeLabel={(index) => t('app.transactions.split.remove', String(index + 1))}
        newItem={() => ({ amount: '', tax: '', description: '' })}
        min={SPLIT_LIMITS.minLines}
        max={SPLIT_LIMITS.maxLines}
      >
        {(index) => (
          <div className="app-form app-form--inline">
            <TextField
              control={form.control}
              name={`lines.${index}.amount`}
              id={`split-line-${index}-amount`}
              label={t('app.transactions.split.lineAmount', String(index + 1))}
              inputMode="decimal"
              autoComplete="off"
            />
            <TextField
              control={form.control}
              name={`lines.${index}.tax`}
              id={`split-line-${index}-tax`}
              label={t('app.transactions.split.lineTax', String(index + 1))}
              inputMode="decimal"
              autoComplete="off"
            />
            <TextField
              control={form.control}
              name={`lines.${index}.description`}
              id={`split-line-${index}-description`}
              label={t('app.transactions.split.lineDescription', String(index + 1))}
              maxLength={SPLIT_LIMITS.descriptionMaxLength}
            />
          </div>
        )}
      </FieldArrayList>
      <p aria-live="polite" id="transaction-split-left">
        {t('app.transactions.split.left', format.money(left.toString(), tx.amount.currency, exponent))}
      </p>
      <p className="app-actions">
        <button type="button" className="app-button" id="transaction-split-equal" onClick={shareEqually}>
          {t('app.transactions.split.equal')}
        </button>
        <SubmitButton form={form} id="transaction-split-save">
          {t('app.transactions.split.save')}
        </SubmitButton>
        <button type="button" className="app-button" id="transaction-split-cancel" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </p>
    </AppForm>
  );
}
