import {
  amountTextProblem,
  decimalOfMinor,
  EXPENSE_LIMITS,
  type ExpenseSettings,
  expensePolicyProblems,
  type Money,
} from '@cardportal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { saveExpensePolicy } from '../../api/expenses.ts';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextAreaField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { ExpensePage, expenseKeys, useExpenseSettings } from './expense-page.tsx';

const formSchema = z
  .object({
    currency: z.string(),
    receiptAbove: z.string(),
    descriptionMaxLength: z.string(),
    workflowInstructions: z.string(),
    limits: z.array(z.object({ typeId: z.number(), limit: z.string(), receiptAbove: z.string() })),
  })
  .superRefine((v, ctx) => {
    if (!/^[A-Za-z]{3}$/.test(v.currency.trim()))
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'expensePolicy.currency.invalid' });
    const problems = expensePolicyProblems({
      descriptionMaxLength: /^\d{1,3}$/.test(v.descriptionMaxLength.trim())
        ? Number(v.descriptionMaxLength)
        : Number.NaN,
      workflowInstructions: v.workflowInstructions,
    });
    for (const [field, message] of Object.entries(problems))
      ctx.addIssue({ code: 'custom', path: [field], message });
    const receipt = amountTextProblem(v.receiptAbove);
    if (receipt) ctx.addIssue({ code: 'custom', path: ['receiptAbove'], message: receipt });
    v.limits.forEach((line, i) => {
      for (const field of ['limit', 'receiptAbove'] as const) {
        const problem = amountTextProblem(line[field]);
        if (problem) ctx.addIssue({ code: 'custom', path: ['limits', i, field], message: problem });
      }
    });
  });
type Form = z.infer<typeof formSchema>;

const amountText = (money: Money | null | undefined) =>
  money ? decimalOfMinor(money.minor, money.exponent) : '';

/** The form's values from the configuration: every active type gets its line of limits. */
function valuesOf(settings: ExpenseSettings): Form {
  const policy = settings.policy;
  return {
    currency: policy?.currency ?? 'EUR',
    receiptAbove: amountText(policy?.receiptAbove),
    descriptionMaxLength: String(policy?.descriptionMaxLength ?? EXPENSE_LIMITS.descriptionMaxLength.max),
    workflowInstructions: policy?.workflowInstructions ?? '',
    limits: settings.types.map((type) => {
      const own = policy?.limits.find((l) => l.typeId === type.id);
      return { typeId: type.id, limit: amountText(own?.limit), receiptAbove: amountText(own?.receiptAbove) };
    }),
  };
}

function PolicyForm({
  number,
  settings,
  onSaved,
}: {
  number: string;
  settings: ExpenseSettings;
  onSaved: () => void;
}) {
  const { t } = useApp();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (v: Form) =>
      saveExpensePolicy(number, {
        currency: v.currency.trim().toUpperCase(),
        receiptAbove: v.receiptAbove.trim() || null,
        descriptionMaxLength: Number(v.descriptionMaxLength),
        workflowInstructions: v.workflowInstructions,
        limits: v.limits.map((l) => ({
          typeId: l.typeId,
          limit: l.limit.trim() || null,
          receiptAbove: l.receiptAbove.trim() || null,
        })),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: expenseKeys.company(number) }),
  });
  const form = useAppForm({ schema: formSchema, defaultValues: valuesOf(settings) });
  return (
    <AppForm
      form={form}
      id="policy-form"
      errorId="policy-form-error"
      requiredNote
      onSubmit={async (values) => {
        await save.mutateAsync(values);
        onSaved();
      }}
    >
      <TextField
        control={form.control}
        name="currency"
        id="policy-currency"
        label={t('app.expenses.currency')}
        hint={t('app.expenses.policy.currencyHint')}
        required
      />
      <TextField
        control={form.control}
        name="receiptAbove"
        id="policy-receipt-above"
        label={t('app.expenses.policy.receiptAbove')}
        hint={t('app.expenses.policy.receiptAboveHint')}
        inputMode="decimal"
      />
      <TextField
        control={form.control}
        name="descriptionMaxLength"
        id="policy-description-max"
        label={t('app.expenses.policy.descriptionMaxLength')}
        hint={t('app.expenses.policy.descriptionMaxLengthHint')}
        inputMode="numeric"
        required
      />
      <TextAreaField
        control={form.control}
        name="workflowInstructions"
        id="policy-instructions"
        label={t('app.expenses.policy.workflowInstructions')}
        hint={t('app.expenses.policy.workflowInstructionsHint')}
        rows={5}
      />
      {settings.types.length > 0 ? (
        <fieldset className="app-fieldset" id="policy-limits">
          <legend>{t('app.expenses.policy.limits')}</legend>
          <p className="app-hint">{t('app.expenses.policy.limitsHint')}</p>
          {settings.types.map((type, i) => (
            <fieldset className="app-fieldset" key={type.id} id={`policy-limits-${i}`}>
              <legend>{type.name}</legend>
              <TextField
                control={form.control}
                name={`limits.${i}.limit`}
                id={`policy-limits-${i}-limit`}
                label={t('app.expenses.policy.limitOf', type.name)}
                inputMode="decimal"
              />
              <TextField
                control={form.control}
                name={`limits.${i}.receiptAbove`}
                id={`policy-limits-${i}-receipt`}
                label={t('app.expenses.policy.receiptAboveOf', type.name)}
                inputMode="decimal"
              />
            </fieldset>
          ))}
        </fieldset>
      ) : null}
      <div className="app-actions">
        <SubmitButton form={form} id="policy-submit">
          {t('app.expenses.policy.save')}
        </SubmitButton>
      </div>
    </AppForm>
  );
}

/** The policy as facts, for those who see it but may not change it. */
function PolicyFacts({ settings }: { settings: ExpenseSettings }) {
  const { t, format } = useApp();
  const policy = settings.policy;
  if (!policy) return null;
  const money = (m: Money | null | undefined) =>
    m ? format.money(m.minor, m.currency, m.exponent) : t('app.expenses.none');
  return (
    <dl className="app-facts" id="policy-facts">
      <div className="app-facts__row">
        <dt>{t('app.expenses.currency')}</dt>
        <dd>{policy.currency}</dd>
      </div>
      <div className="app-facts__row">
        <dt>{t('app.expenses.policy.receiptAbove')}</dt>
        <dd>{money(policy.receiptAbove)}</dd>
      </div>
      <div className="app-facts__row">
        <dt>{t('app.expenses.policy.descriptionMaxLength')}</dt>
        <dd>{format.number(policy.descriptionMaxLength)}</dd>
      </div>
      <div className="app-facts__row">
        <dt>{t('app.expenses.policy.workflowInstructions')}</dt>
        <dd className="app-pre">{policy.workflowInstructions || t('app.expenses.none')}</dd>
      </div>
      {settings.types.map((type) => (
        <div className="app-facts__row" key={type.id}>
          <dt>{t('app.expenses.policy.limitOf', type.name)}</dt>
          <dd>{money(type.limit)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A company's expense policy (issue 17 item 1): the currency its amounts are in, receipts required above
 * an amount (in general and per type), each type's limit, how long a line's description may be (10–255),
 * and the instructions approvers and cardholders read (at most 900 characters).
 */
export function ExpensePolicyScreen() {
  const { t } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.expenses.policy.heading', number));
  const query = useExpenseSettings(number);
  const settings = query.data;
  const [saved, setSaved] = useState(false);
  return (
    <ExpensePage
      number={number}
      idPrefix="policy"
      heading={t('app.expenses.policy.heading', number)}
      intro={t('app.expenses.policy.intro')}
      readOnly={settings?.readOnly === true}
      problem={query.isError ? problemOf(query.error) : undefined}
    >
      <p role="status" id="policy-done" className="app-done">
        {saved ? t('app.expenses.policy.saved') : ''}
      </p>
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {settings && !settings.policy ? <p id="policy-none">{t('app.expenses.policy.none')}</p> : null}
      {settings && !settings.canModify ? <PolicyFacts settings={settings} /> : null}
      {settings?.canModify ? (
        <PolicyForm
          key={settings.policy?.updatedAt ?? 'new'}
          number={number}
          settings={settings}
          onSaved={() => setSaved(true)}
        />
      ) : null}
    </ExpensePage>
  );
}
