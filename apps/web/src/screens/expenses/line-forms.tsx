import {
  amountTextProblem,
  type ExpenseLine,
  type ExpenseLineBody,
  type ExpenseReportDetail,
  lineDescriptionProblem,
  odometerProblem,
} from '@cardportal/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { attachReceipt, openTransactions, saveLine } from '../../api/expense-reports.ts';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { DateField } from '../../frame/form/date-field.tsx';
import { FieldArrayList } from '../../frame/form/field-array.tsx';
import { RadioGroupField, SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useApp } from '../../lib/app-context.tsx';
import { reportKeys } from './report-lists.tsx';

type Choices = NonNullable<ExpenseReportDetail['choices']>;
type TypeChoice = Choices['types'][number];

/** The values of a type's properties as fields (`{prefix}-prop-{i}`), named by their labels. */
function PropertyFields({
  type,
  prefix,
  values,
  onChange,
  problems,
}: {
  type: TypeChoice | undefined;
  prefix: string;
  values: Record<string, string>;
  onChange: (label: string, value: string) => void;
  problems: Record<string, string>;
}) {
  const { fieldProblemText } = useApp();
  if (!type || type.properties.length === 0) return null;
  return (
    <>
      {type.properties.map((p, i) => {
        const id = `${prefix}-prop-${i}`;
        const problem = problems[`properties.${p.label}`];
        return (
          <div className="cp-field" key={p.label}>
            <label className="cp-field__label" htmlFor={id}>
              {p.label}
              {p.required ? <span aria-hidden="true"> *</span> : null}
            </label>
            <input
              id={id}
              className="cp-field__input"
              type={p.kind === 'date' ? 'date' : 'text'}
              inputMode={p.kind === 'number' ? 'decimal' : undefined}
              value={values[p.label] ?? ''}
              required={p.required}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-error` : undefined}
              onChange={(e) => onChange(p.label, e.target.value)}
            />
            {problem ? (
              <p className="cp-field__error" id={`${id}-error`}>
                {fieldProblemText(problem)}
              </p>
            ) : null}
          </div>
        );
      })}
    </>
  );
}

/** Server problems of properties (`properties.Label`) from a refusal, for PropertyFields. */
function propertyProblems(error: unknown): Record<string, string> {
  const fieldErrors = (error as { fieldErrors?: Record<string, string> } | undefined)?.fieldErrors ?? {};
  return Object.fromEntries(Object.entries(fieldErrors).filter(([k]) => k.startsWith('properties.')));
}

const cardRowsSchema = (maxDescription: number) =>
  z.object({
    rows: z
      .array(
        z
          .object({ transactionId: z.string(), typeId: z.string(), description: z.string() })
          .superRefine((row, ctx) => {
            if (!row.transactionId)
              ctx.addIssue({
                code: 'custom',
                path: ['transactionId'],
                message: 'expenseLine.transaction.required',
              });
            if (!row.typeId)
              ctx.addIssue({ code: 'custom', path: ['typeId'], message: 'expenseLine.type.required' });
            const problem = lineDescriptionProblem(row.description, maxDescription);
            if (problem) ctx.addIssue({ code: 'custom', path: ['description'], message: problem });
          }),
      )
      .min(1, { error: 'expenseLine.transaction.required' })
      .superRefine((rows, ctx) => {
        const seen = new Set<string>();
        rows.forEach((row, i) => {
          if (row.transactionId && seen.has(row.transactionId))
            ctx.addIssue({
              code: 'custom',
              path: [i, 'transactionId'],
              message: 'expenseLine.transaction.onReport',
            });
          seen.add(row.transactionId);
        });
      }),
  });

/**
 * Card transactions onto the report (issue 17 item 4: "field arrays for lines"): one row per
 * transaction — which of the cardholder's open transactions, its expense type and description — added
 * together. The types' required properties are asked for on the line afterwards (Edit).
 */
export function CardLinesForm({
  report,
  onDone,
}: {
  report: ExpenseReportDetail;
  onDone: (detail: ExpenseReportDetail) => void;
}) {
  const { t, format } = useApp();
  const client = useQueryClient();
  const open = useQuery({
    queryKey: reportKeys.transactions({}),
    queryFn: ({ signal }) => openTransactions({}, signal),
  });
  const types = (report.choices?.types ?? []).filter((ty) => ty.category === 'general');
  const [properties, setProperties] = useState<Record<number, Record<string, string>>>({});
  const [propertyErrors, setPropertyErrors] = useState<Record<number, Record<string, string>>>({});
  const form = useAppForm({
    schema: cardRowsSchema(report.policy?.descriptionMaxLength ?? 255),
    defaultValues: { rows: [{ transactionId: '', typeId: '', description: '' }] },
  });
  const rows = form.watch('rows');
  const options = (open.data?.rows ?? [])
    .filter((tx) => tx.amount.currency === report.total.currency)
    .map((tx) => ({
      value: String(tx.id),
      label: `${format.date(tx.transactionDate)} · ${tx.merchantName} · ${format.money(tx.amount.minor, tx.amount.currency, tx.amount.exponent)}`,
    }));
  return (
    <section aria-labelledby="card-lines-heading">
      <h3 id="card-lines-heading">{t('app.expenses.lines.addCard')}</h3>
      {open.isSuccess && options.length === 0 ? (
        <p id="card-lines-none">{t('app.expenses.lines.noTransactions')}</p>
      ) : (
        <AppForm
          form={form}
          id="card-lines-form"
          errorId="card-lines-error"
          requiredNote
          onSubmit={async (v) => {
            let latest: ExpenseReportDetail | undefined;
            // One line after another: the first refusal stops, naming its row; the rows before it stay added.
            for (const [i, row] of v.rows.entries()) {
              try {
                latest = await saveLine(report.id, undefined, {
                  kind: 'card',
                  transactionId: Number(row.transactionId),
                  typeId: Number(row.typeId),
                  description: row.description.trim(),
                  properties: properties[i] ?? {},
                });
              } catch (error) {
                setPropertyErrors({ [i]: propertyProblems(error) });
                if (latest) onDone(latest);
                throw error;
              }
            }
            setPropertyErrors({});
            setProperties({});
            form.reset({ rows: [{ transactionId: '', typeId: '', description: '' }] });
            await client.invalidateQueries({ queryKey: reportKeys.all });
            if (latest) onDone(latest);
          }}
        >
          <FieldArrayList
            control={form.control}
            name="rows"
            idPrefix="card-lines"
            legend={t('app.expenses.lines.cardRows')}
            addLabel={t('app.expenses.lines.addCardRow')}
            removeLabel={(i) => t('app.expenses.lines.removeCardRow', String(i + 1))}
            newItem={() => ({ transactionId: '', typeId: '', description: '' })}
            min={1}
            max={Math.min(20, options.length)}
          >
            {(index) => (
              <>
                <SelectField
                  control={form.control}
                  name={`rows.${index}.transactionId`}
                  id={`card-lines-${index}-transaction`}
                  label={t('app.expenses.lines.transaction', String(index + 1))}
                  options={[{ value: '', label: t('app.expenses.lines.choose') }, ...options]}
                  required
                />
                <SelectField
                  control={form.control}
                  name={`rows.${index}.typeId`}
                  id={`card-lines-${index}-type`}
                  label={t('app.expenses.lines.typeOf', String(index + 1))}
                  options={[
                    { value: '', label: t('app.expenses.lines.choose') },
                    ...types.map((ty) => ({ value: String(ty.id), label: ty.name })),
                  ]}
                  required
                />
                <TextField
                  control={form.control}
                  name={`rows.${index}.description`}
                  id={`card-lines-${index}-description`}
                  label={t('app.expenses.lines.descriptionOf', String(index + 1))}
                  maxLength={report.policy?.descriptionMaxLength ?? 255}
                  required
                />
                <PropertyFields
                  type={types.find((ty) => String(ty.id) === rows[index]?.typeId)}
                  prefix={`card-lines-${index}`}
                  values={properties[index] ?? {}}
                  problems={propertyErrors[index] ?? {}}
                  onChange={(label, value) =>
                    setProperties((all) => ({ ...all, [index]: { ...all[index], [label]: value } }))
                  }
                />
              </>
            )}
          </FieldArrayList>
          <SubmitButton form={form} id="card-lines-submit">
            {t('app.expenses.lines.addCardSubmit')}
          </SubmitButton>
        </AppForm>
      )}
    </section>
  );
}

const otherSchema = (maxDescription: number) =>
  z
    .object({
      kind: z.enum(['cash', 'mileage']),
      date: z.string(),
      typeId: z.string(),
      description: z.string(),
      amount: z.string(),
      mileageRateId: z.string(),
      odometerStart: z.string(),
      odometerEnd: z.string(),
      taxRateId: z.string(),
    })
    .superRefine((v, ctx) => {
      const issue = (path: string, message: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message });
      if (!v.date) issue('date', 'date.invalid');
      if (!v.typeId) issue('typeId', 'expenseLine.type.required');
      const description = lineDescriptionProblem(v.description, maxDescription);
      if (description) issue('description', description);
      if (v.kind === 'cash') {
        const amount = amountTextProblem(v.amount, 'expenseLine.amount.required');
        if (amount) issue('amount', amount);
      } else {
        if (!v.mileageRateId) issue('mileageRateId', 'expenseLine.mileageRate.required');
        const whole = (s: string) => (/^\d{1,7}$/.test(s.trim()) ? Number(s.trim()) : Number.NaN);
        const odometer = odometerProblem(whole(v.odometerStart), whole(v.odometerEnd));
        if (odometer)
          issue(odometer === 'expenseLine.odometer.order' ? 'odometerEnd' : 'odometerStart', odometer);
      }
    });
type Other = z.infer<ReturnType<typeof otherSchema>>;

const blankOther: Other = {
  kind: 'cash',
  date: '',
  typeId: '',
  description: '',
  amount: '',
  mileageRateId: '',
  odometerStart: '',
  odometerEnd: '',
  taxRateId: '',
};

/** An out-of-pocket cost or a journey — new, or a line being changed (any kind: its own fields). */
export function LineForm({
  report,
  editing,
  onDone,
  onCancel,
}: {
  report: ExpenseReportDetail;
  editing?: ExpenseLine | undefined;
  onDone: (detail: ExpenseReportDetail) => void;
  onCancel?: (() => void) | undefined;
}) {
  const { t } = useApp();
  const client = useQueryClient();
  const choices = report.choices;
  const card = editing?.kind === 'card';
  const [properties, setProperties] = useState<Record<string, string>>(editing?.properties ?? {});
  const [propertyErrors, setPropertyErrors] = useState<Record<string, string>>({});
  const form = useAppForm({
    schema: otherSchema(report.policy?.descriptionMaxLength ?? 255),
    defaultValues: editing
      ? {
          kind: editing.kind === 'mileage' ? 'mileage' : 'cash',
          date: editing.date,
          typeId: String(editing.type.id),
          description: editing.description,
          amount: card ? '1' : decimal(editing.amount.minor, editing.amount.exponent),
          mileageRateId: editing.mileage ? String(editing.mileage.rateId) : '',
          odometerStart: editing.mileage ? String(editing.mileage.odometerStart) : '',
          odometerEnd: editing.mileage ? String(editing.mileage.odometerEnd) : '',
          taxRateId: editing.taxRateId ? String(editing.taxRateId) : '',
        }
      : blankOther,
  });
  const kind = form.watch('kind');
  const typeId = form.watch('typeId');
  const category = kind === 'mileage' ? 'mileage' : 'general';
  const types = (choices?.types ?? []).filter((ty) => ty.category === category);
  const prefix = editing ? 'line-edit' : 'line-new';
  return (
    <AppForm
      form={form}
      id={`${prefix}-form`}
      errorId={`${prefix}-error`}
      requiredNote
      onSubmit={async (v) => {
        const body: ExpenseLineBody = card
          ? {
              kind: 'card',
              transactionId: editing?.transaction?.id ?? 0,
              typeId: Number(v.typeId),
              description: v.description.trim(),
              taxRateId: v.taxRateId ? Number(v.taxRateId) : null,
              properties,
            }
          : {
              kind: v.kind,
              date: v.date,
              typeId: Number(v.typeId),
              description: v.description.trim(),
              taxRateId: v.taxRateId ? Number(v.taxRateId) : null,
              properties,
              ...(v.kind === 'cash'
                ? { amount: v.amount.trim() }
                : {
                    mileageRateId: Number(v.mileageRateId),
                    odometerStart: Number(v.odometerStart.trim()),
                    odometerEnd: Number(v.odometerEnd.trim()),
                  }),
            };
        try {
          const detail = await saveLine(report.id, editing?.id, body);
          setPropertyErrors({});
          if (!editing) {
            form.reset(blankOther);
            setProperties({});
          }
          await client.invalidateQueries({ queryKey: reportKeys.all });
          onDone(detail);
        } catch (error) {
          setPropertyErrors(propertyProblems(error));
          throw error;
        }
      }}
    >
      {editing ? null : (
        <RadioGroupField
          control={form.control}
          name="kind"
          id={`${prefix}-kind`}
          label={t('app.expenses.lines.kind')}
          options={[
            { value: 'cash', label: t('app.expenses.lines.kinds.cash') },
            { value: 'mileage', label: t('app.expenses.lines.kinds.mileage') },
          ]}
        />
      )}
      {card ? null : (
        <DateField
          control={form.control}
          name="date"
          id={`${prefix}-date`}
          label={t('app.expenses.lines.date')}
        />
      )}
      <SelectField
        control={form.control}
        name="typeId"
        id={`${prefix}-type`}
        label={t('app.expenses.lines.type')}
        options={[
          { value: '', label: t('app.expenses.lines.choose') },
          ...types.map((ty) => ({ value: String(ty.id), label: ty.name })),
        ]}
        required
      />
      <TextField
        control={form.control}
        name="description"
        id={`${prefix}-description`}
        label={t('app.expenses.lines.description')}
        hint={t('app.expenses.lines.descriptionHint', String(report.policy?.descriptionMaxLength ?? 255))}
        required
      />
      {card ? null : kind === 'cash' ? (
        <TextField
          control={form.control}
          name="amount"
          id={`${prefix}-amount`}
          label={t('app.expenses.lines.amount', report.total.currency)}
          inputMode="decimal"
          autoComplete="off"
          required
        />
      ) : (
        <>
          <SelectField
            control={form.control}
            name="mileageRateId"
            id={`${prefix}-rate`}
            label={t('app.expenses.lines.rate')}
            options={[
              { value: '', label: t('app.expenses.lines.choose') },
              ...(choices?.mileageRates ?? []).map((r) => ({
                value: String(r.id),
                label: t(
                  'app.expenses.lines.rateOption',
                  r.name,
                  r.rate,
                  report.total.currency,
                  t(`app.expenses.mileage.units.${r.unit}`),
                ),
              })),
            ]}
            required
          />
          <TextField
            control={form.control}
            name="odometerStart"
            id={`${prefix}-odometer-start`}
            label={t('app.expenses.lines.odometerStart')}
            inputMode="numeric"
            autoComplete="off"
            required
          />
          <TextField
            control={form.control}
            name="odometerEnd"
            id={`${prefix}-odometer-end`}
            label={t('app.expenses.lines.odometerEnd')}
            inputMode="numeric"
            autoComplete="off"
            required
          />
        </>
      )}
      <SelectField
        control={form.control}
        name="taxRateId"
        id={`${prefix}-tax`}
        label={t('app.expenses.lines.tax')}
        options={[
          { value: '', label: t('app.expenses.lines.noTax') },
          ...(choices?.taxRates ?? []).map((r) => ({
            value: String(r.id),
            label: `${r.name} (${r.rate} %)`,
          })),
        ]}
      />
      <PropertyFields
        type={(choices?.types ?? []).find((ty) => String(ty.id) === typeId)}
        prefix={prefix}
        values={properties}
        problems={propertyErrors}
        onChange={(label, value) => setProperties((all) => ({ ...all, [label]: value }))}
      />
      <div className="app-actions">
        <SubmitButton form={form} id={`${prefix}-submit`}>
          {editing ? t('app.expenses.lines.save') : t('app.expenses.lines.add')}
        </SubmitButton>
        {onCancel ? (
          <button type="button" className="app-button" id={`${prefix}-cancel`} onClick={onCancel}>
            {t('common.cancel')}
          </button>
        ) : null}
      </div>
    </AppForm>
  );
}

/** Minor units as the decimal a person types (`12345`, 2 → `123.45`). */
function decimal(minor: string, exponent: number): string {
  const negative = minor.startsWith('-');
  const digits = (negative ? minor.slice(1) : minor).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** A line's receipt: choose a JPEG, PNG or PDF (at most 4 MB) and attach it. */
export function ReceiptForm({
  report,
  line,
  onDone,
  onCancel,
}: {
  report: ExpenseReportDetail;
  line: ExpenseLine;
  onDone: (detail: ExpenseReportDetail) => void;
  onCancel: () => void;
}) {
  const { t, problemText } = useApp();
  const client = useQueryClient();
  const [file, setFile] = useState<File | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      id="receipt-form"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (!file) {
          setProblem('receipt.empty');
          return;
        }
        setBusy(true);
        try {
          const detail = await attachReceipt(report.id, line.id, file);
          setProblem(undefined);
          await client.invalidateQueries({ queryKey: reportKeys.all });
          onDone(detail);
        } catch (error) {
          setProblem((error as { code?: string }).code ?? 'http.500');
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 id="receipt-heading">{t('app.expenses.lines.receiptFor', line.description)}</h3>
      {problem ? (
        <p role="alert" className="cp-error-summary" id="receipt-error">
          {problemText(problem)}
        </p>
      ) : null}
      <div className="cp-field">
        <label className="cp-field__label" htmlFor="receipt-file">
          {t('app.expenses.lines.receiptFile')}
        </label>
        <input
          id="receipt-file"
          type="file"
          accept="image/jpeg,image/png,application/pdf"
          aria-describedby="receipt-file-hint"
          onChange={(e) => setFile(e.target.files?.[0])}
        />
        <p className="app-hint" id="receipt-file-hint">
          {t('app.expenses.lines.receiptHint')}
        </p>
      </div>
      <div className="app-actions">
        <button type="submit" className="app-button app-button--primary" id="receipt-submit" disabled={busy}>
          {t('app.expenses.lines.attach')}
        </button>
        <button type="button" className="app-button" id="receipt-cancel" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
