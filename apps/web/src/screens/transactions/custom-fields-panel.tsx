import { formatCustomDate, type TransactionCustomFields } from '@cardportal/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { getCustomValues, setCustomValues } from '../../api/allocation.ts';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useApp } from '../../lib/app-context.tsx';
import { transactionKeys } from './transactions-queries.ts';

type Field = TransactionCustomFields['fields'][number];

/** A field's value as the form and the facts show it (a date in the field's format). */
const shown = (field: Field) =>
  field.value === null
    ? ''
    : field.type === 'date'
      ? formatCustomDate(field.value, field.dateFormat)
      : field.value;

/** The form's field name: `f{id}` (a number alone would make react-hook-form build an array). */
const nameOf = (id: number) => `f${id}`;

/**
 * A transaction's custom data fields (issue 16 item 4): the company's own fields with this transaction's
 * values, and the form that changes them — each checked by the server by its type (a date in the field's
 * format, a number with its decimals, a list value), required ones filled; not once locked or exported.
 */
export function CustomFieldsPanel({ txId }: { txId: string }) {
  const { t, problemText } = useApp();
  const client = useQueryClient();
  const key = [...transactionKeys.all, 'custom-fields', txId] as const;
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => getCustomValues(txId, signal) });
  const [editing, setEditing] = useState(false);
  const [done, setDone] = useState(false);
  const data = query.data;
  if (!data || data.fields.length === 0) return null;
  return (
    <section aria-labelledby="custom-fields-heading" className="app-section" id="transaction-custom-fields">
      <h2 id="custom-fields-heading">{t('app.transactions.custom.heading')}</h2>
      <div aria-live="polite" className="app-live">
        {done ? (
          <p className="app-done" id="custom-fields-done">
            {t('app.transactions.custom.saved')}
          </p>
        ) : null}
      </div>
      {data.blocked ? (
        <p className="app-hint" id="custom-fields-blocked">
          {problemText(data.blocked)}
        </p>
      ) : null}
      {editing ? (
        <CustomFieldsForm
          txId={txId}
          data={data}
          onDone={(answer) => {
            client.setQueryData(key, answer);
            setEditing(false);
            setDone(true);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <dl className="app-facts" id="custom-fields-facts">
            {data.fields.map((field) => (
              <div key={field.id} className="app-facts__row">
                <dt>{field.label}</dt>
                <dd>{shown(field) || t('app.none')}</dd>
              </div>
            ))}
          </dl>
          {data.canEdit ? (
            <p className="app-actions">
              <button
                type="button"
                className="app-button"
                id="custom-fields-edit"
                onClick={() => {
                  setDone(false);
                  setEditing(true);
                }}
              >
                {t('app.transactions.custom.edit')}
              </button>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function CustomFieldsForm({
  txId,
  data,
  onDone,
  onCancel,
}: {
  txId: string;
  data: TransactionCustomFields;
  onDone: (answer: TransactionCustomFields) => void;
  onCancel: () => void;
}) {
  const { t } = useApp();
  const save = useMutation({ mutationFn: (values: Record<string, string>) => setCustomValues(txId, values) });
  const form = useAppForm({
    schema: z.object({ values: z.record(z.string(), z.string().optional()) }),
    defaultValues: { values: Object.fromEntries(data.fields.map((f) => [nameOf(f.id), shown(f)])) },
    fieldAlias: Object.fromEntries(
      data.fields.map((f) => [`values.${f.id}`, `values.${nameOf(f.id)}`]),
    ) as Record<string, `values.${string}`>,
  });
  return (
    <AppForm
      form={form}
      id="custom-fields-form"
      errorId="custom-fields-form-error"
      requiredNote
      onSubmit={async ({ values }) => {
        const answer = await save.mutateAsync(
          Object.fromEntries(data.fields.map((f) => [String(f.id), (values[nameOf(f.id)] ?? '').trim()])),
        );
        onDone(answer);
      }}
    >
      {data.fields.map((field) =>
        field.type === 'list' ? (
          <SelectField
            key={field.id}
            control={form.control}
            name={`values.${nameOf(field.id)}`}
            id={`custom-field-${field.id}`}
            label={field.label}
            placeholder={t('app.transactions.custom.choose')}
            options={field.values.map((value) => ({ value, label: value }))}
            required={field.required}
          />
        ) : (
          <TextField
            key={field.id}
            control={form.control}
            name={`values.${nameOf(field.id)}`}
            id={`custom-field-${field.id}`}
            label={field.label}
            hint={
              field.type === 'date'
                ? t('app.transactions.custom.dateHint', field.dateFormat)
                : field.type === 'number'
                  ? t('app.transactions.custom.numberHint', String(field.decimals))
                  : undefined
            }
            inputMode={field.type === 'number' ? 'decimal' : undefined}
            maxLength={field.type === 'text' ? field.length : undefined}
            autoComplete="off"
            required={field.required}
          />
        ),
      )}
      <p className="app-actions">
        <SubmitButton form={form} id="custom-fields-save">
          {t('app.people.form.save')}
        </SubmitButton>
        <button type="button" className="app-button" id="custom-fields-cancel" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </p>
    </AppForm>
  );
}
