import {
  EXPENSE_LIMITS,
  expenseNameProblem,
  MILEAGE_UNITS,
  type MileageRate,
  mileageRateOf,
  type TaxRate,
  taxRateOf,
} from '@cardportal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { saveExpenseRecord } from '../../api/expenses.ts';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { CheckboxField, SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { ExpensePage, expenseKeys, useExpenseSettings } from './expense-page.tsx';
import { FormActions, RecordsSection } from './records-section.tsx';

type EditorProps<T> = {
  number: string;
  editing?: T | undefined;
  onDone: () => void;
  onCancel?: (() => void) | undefined;
};

const mileageSchema = z
  .object({
    name: z.string(),
    unit: z.enum(MILEAGE_UNITS),
    currency: z.string(),
    rate: z.string(),
    active: z.boolean(),
  })
  .superRefine((v, ctx) => {
    const name = expenseNameProblem('mileageRate', v.name);
    if (name) ctx.addIssue({ code: 'custom', path: ['name'], message: name });
    if (!/^[A-Za-z]{3}$/.test(v.currency.trim()))
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'mileageRate.currency.invalid' });
    const rate = mileageRateOf(v.rate);
    if ('problem' in rate) ctx.addIssue({ code: 'custom', path: ['rate'], message: rate.problem });
  });
type MileageForm = z.infer<typeof mileageSchema>;

/** A mileage rate's form: its name, per km or mile, currency and rate (up to four decimals), active. */
function MileageEditor({ number, editing, onDone, onCancel }: EditorProps<MileageRate>) {
  const { t } = useApp();
  const client = useQueryClient();
  const empty: MileageForm = { name: '', unit: 'km', currency: 'EUR', rate: '', active: true };
  const save = useMutation({
    mutationFn: (v: MileageForm) =>
      saveExpenseRecord(number, 'mileage-rates', editing?.id, {
        ...v,
        name: v.name.trim(),
        currency: v.currency.trim().toUpperCase(),
        rate: v.rate.trim(),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: expenseKeys.company(number) }),
  });
  const form = useAppForm({
    schema: mileageSchema,
    defaultValues: editing ? { ...editing } : empty,
    codeFields: { 'mileageRate.name.duplicate': 'name', 'mileageRate.rate.duplicate': 'rate' },
  });
  const prefix = editing ? 'mileage-edit' : 'mileage-create';
  return (
    <AppForm
      form={form}
      id={`${prefix}-form`}
      errorId={`${prefix}-error`}
      requiredNote
      onSubmit={async (values) => {
        await save.mutateAsync(values);
        if (!editing) form.reset(empty);
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="name"
        id={`${prefix}-name`}
        label={t('app.expenses.name')}
        required
      />
      <SelectField
        control={form.control}
        name="unit"
        id={`${prefix}-unit`}
        label={t('app.expenses.mileage.unit')}
        options={MILEAGE_UNITS.map((value) => ({ value, label: t(`app.expenses.mileage.units.${value}`) }))}
      />
      <TextField
        control={form.control}
        name="currency"
        id={`${prefix}-currency`}
        label={t('app.expenses.currency')}
        hint={t('app.expenses.currencyHint')}
        required
      />
      <TextField
        control={form.control}
        name="rate"
        id={`${prefix}-rate`}
        label={t('app.expenses.mileage.rate')}
        hint={t('app.expenses.mileage.rateHint')}
        inputMode="decimal"
        required
      />
      {editing ? (
        <CheckboxField
          control={form.control}
          name="active"
          id={`${prefix}-active`}
          label={t('app.expenses.active')}
        />
      ) : null}
      <FormActions
        prefix={prefix}
        editing={editing !== undefined}
        createLabel={t('app.expenses.mileage.create')}
        onCancel={onCancel}
      >
        {(label) => (
          <SubmitButton form={form} id={`${prefix}-submit`}>
            {label}
          </SubmitButton>
        )}
      </FormActions>
    </AppForm>
  );
}

const taxSchema = z
  .object({ name: z.string(), rate: z.string(), active: z.boolean() })
  .superRefine((v, ctx) => {
    const name = expenseNameProblem('taxRate', v.name);
    if (name) ctx.addIssue({ code: 'custom', path: ['name'], message: name });
    const rate = taxRateOf(v.rate);
    if ('problem' in rate) ctx.addIssue({ code: 'custom', path: ['rate'], message: rate.problem });
  });
type TaxForm = z.infer<typeof taxSchema>;

/** A tax rate's form: its name and percent (up to three decimals), active. */
function TaxEditor({ number, editing, onDone, onCancel }: EditorProps<TaxRate>) {
  const { t } = useApp();
  const client = useQueryClient();
  const empty: TaxForm = { name: '', rate: '', active: true };
  const save = useMutation({
    mutationFn: (v: TaxForm) =>
      saveExpenseRecord(number, 'tax-rates', editing?.id, { ...v, name: v.name.trim(), rate: v.rate.trim() }),
    onSuccess: () => client.invalidateQueries({ queryKey: expenseKeys.company(number) }),
  });
  const form = useAppForm({
    schema: taxSchema,
    defaultValues: editing ? { ...editing } : empty,
    codeFields: { 'taxRate.name.duplicate': 'name' },
  });
  const prefix = editing ? 'tax-edit' : 'tax-create';
  return (
    <AppForm
      form={form}
      id={`${prefix}-form`}
      errorId={`${prefix}-error`}
      requiredNote
      onSubmit={async (values) => {
        await save.mutateAsync(values);
        if (!editing) form.reset(empty);
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="name"
        id={`${prefix}-name`}
        label={t('app.expenses.name')}
        required
      />
      <TextField
        control={form.control}
        name="rate"
        id={`${prefix}-rate`}
        label={t('app.expenses.tax.rate')}
        hint={t('app.expenses.tax.rateHint')}
        inputMode="decimal"
        required
      />
      {editing ? (
        <CheckboxField
          control={form.control}
          name="active"
          id={`${prefix}-active`}
          label={t('app.expenses.active')}
        />
      ) : null}
      <FormActions
        prefix={prefix}
        editing={editing !== undefined}
        createLabel={t('app.expenses.tax.create')}
        onCancel={onCancel}
      >
        {(label) => (
          <SubmitButton form={form} id={`${prefix}-submit`}>
            {label}
          </SubmitButton>
        )}
      </FormActions>
    </AppForm>
  );
}

/**
 * A company's mileage rates (at most 50: per km or mile, above zero, no rate twice for a unit) and tax
 * rates (at most 10: a percent above 0 and at most 100), issue 17 item 1.
 */
export function ExpenseRatesScreen() {
  const { t } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.expenses.rates.heading', number));
  const query = useExpenseSettings(number);
  const settings = query.data;

  const mileageColumns = useMemo((): DataColumn<MileageRate>[] => {
    const col = dataColumns<MileageRate>();
    return col.columns([
      col.accessor('name', {
        header: t('app.expenses.name'),
        enableHiding: false,
        meta: { rowHeader: true },
      }),
      col.accessor('rate', {
        header: t('app.expenses.mileage.rate'),
        cell: ({ row: { original: r } }) =>
          // The exact decimal (four places at most), never through a float.
          t('app.expenses.mileage.per', `${r.rate} ${r.currency}`, t(`app.expenses.mileage.units.${r.unit}`)),
      }),
      col.accessor((r) => (r.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ]);
  }, [t]);

  const taxColumns = useMemo((): DataColumn<TaxRate>[] => {
    const col = dataColumns<TaxRate>();
    return col.columns([
      col.accessor('name', {
        header: t('app.expenses.name'),
        enableHiding: false,
        meta: { rowHeader: true },
      }),
      col.accessor((r) => Number.parseFloat(r.rate), {
        id: 'rate',
        header: t('app.expenses.tax.rate'),
        cell: ({ row }) => `${row.original.rate} %`,
      }),
      col.accessor((r) => (r.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ]);
  }, [t]);

  return (
    <ExpensePage
      number={number}
      idPrefix="rates"
      heading={t('app.expenses.rates.heading', number)}
      intro={t('app.expenses.rates.intro')}
      readOnly={settings?.readOnly === true}
      problem={query.isError ? problemOf(query.error) : undefined}
    >
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {settings ? (
        <>
          <RecordsSection
            number={number}
            part="mileage-rates"
            idPrefix="mileage-rates"
            heading={t('app.expenses.mileage.heading')}
            caption={t('app.expenses.mileage.heading')}
            columns={mileageColumns}
            rows={settings.mileageRates}
            canModify={settings.canModify}
            remaining={EXPENSE_LIMITS.mileageRatesPerCompany - settings.mileageRates.length}
            nameOf={(r) => r.name}
            emptyText={t('app.expenses.mileage.empty')}
            createHeading={t('app.expenses.mileage.createHeading')}
            fullText={t('app.expenses.mileage.full')}
            editor={(props) => <MileageEditor number={number} {...props} />}
          />
          <RecordsSection
            number={number}
            part="tax-rates"
            idPrefix="tax-rates"
            heading={t('app.expenses.tax.heading')}
            caption={t('app.expenses.tax.heading')}
            columns={taxColumns}
            rows={settings.taxRates}
            canModify={settings.canModify}
            remaining={EXPENSE_LIMITS.taxRatesPerCompany - settings.taxRates.length}
            nameOf={(r) => r.name}
            emptyText={t('app.expenses.tax.empty')}
            createHeading={t('app.expenses.tax.createHeading')}
            fullText={t('app.expenses.tax.full')}
            editor={(props) => <TaxEditor number={number} {...props} />}
          />
        </>
      ) : null}
    </ExpensePage>
  );
}
