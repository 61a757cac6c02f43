import {
  CUSTOM_DATE_FORMATS,
  CUSTOM_FIELD_TYPES,
  type CustomField,
  customFieldDefinitionProblems,
  splitCodeList,
} from '@cardportal/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { deleteCustomField, listCustomFields, saveCustomField } from '../../api/accounting.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { AccountingPage } from './accounting-page.tsx';
import { accountingKeys } from './accounting-queries.ts';

type Done = KeySuffix<'app.accounting.custom.done.'>;

const formSchema = z
  .object({
    label: z.string(),
    type: z.enum(CUSTOM_FIELD_TYPES),
    length: z.string(),
    decimals: z.string(),
    dateFormat: z.enum(CUSTOM_DATE_FORMATS),
    values: z.string(),
    required: z.boolean(),
    active: z.boolean(),
  })
  .superRefine((v, ctx) => {
    const whole = (text: string) => (/^\d{1,3}$/.test(text.trim()) ? Number(text) : Number.NaN);
    const problems = customFieldDefinitionProblems({
      label: v.label,
      type: v.type,
      length: whole(v.length),
      decimals: whole(v.decimals),
      dateFormat: v.dateFormat,
      required: v.required,
      values: splitCodeList(v.values),
    });
    for (const [field, message] of Object.entries(problems))
      ctx.addIssue({ code: 'custom', path: [field], message });
  });
type Form = z.infer<typeof formSchema>;

const empty: Form = {
  label: '',
  type: 'text',
  length: '80',
  decimals: '0',
  dateFormat: 'YYYY-MM-DD',
  values: '',
  required: false,
  active: true,
};

/** A custom field's form: the label, type and what the type needs; required; active when editing. */
function FieldEditor({
  number,
  editing,
  onDone,
  onCancel,
}: {
  number: string;
  editing?: CustomField | undefined;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const { t } = useApp();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (v: Form) =>
      saveCustomField(number, editing?.id, {
        label: v.label.trim(),
        type: v.type,
        length: Number(v.length),
        decimals: Number(v.decimals),
        dateFormat: v.dateFormat,
        required: v.required,
        active: v.active,
        values: splitCodeList(v.values),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: accountingKeys.company(number) }),
  });
  const form = useAppForm({
    schema: formSchema,
    defaultValues: editing
      ? {
          label: editing.label,
          type: editing.type,
          length: String(editing.length),
          decimals: String(editing.decimals),
          dateFormat: editing.dateFormat,
          values: editing.values.join('\n'),
          required: editing.required,
          active: editing.active,
        }
      : empty,
    codeFields: { 'customField.label.duplicate': 'label' },
  });
  const type = form.watch('type');
  const prefix = editing ? 'custom-edit' : 'custom-create';
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
        name="label"
        id={`${prefix}-label`}
        label={t('app.accounting.custom.label')}
        required
      />
      <SelectField
        control={form.control}
        name="type"
        id={`${prefix}-type`}
        label={t('app.accounting.custom.type')}
        options={CUSTOM_FIELD_TYPES.map((value) => ({
          value,
          label: t(`app.accounting.custom.types.${value}`),
        }))}
      />
      {type === 'text' || type === 'number' ? (
        <TextField
          control={form.control}
          name="length"
          id={`${prefix}-length`}
          label={t('app.accounting.custom.length')}
          hint={t(
            type === 'text'
              ? 'app.accounting.custom.textLengthHint'
              : 'app.accounting.custom.numberLengthHint',
          )}
          inputMode="numeric"
          required
        />
      ) : null}
      {type === 'number' ? (
        <TextField
          control={form.control}
          name="decimals"
          id={`${prefix}-decimals`}
          label={t('app.accounting.custom.decimals')}
          hint={t('app.accounting.custom.decimalsHint')}
          inputMode="numeric"
        />
      ) : null}
      {type === 'date' ? (
        <SelectField
          control={form.control}
          name="dateFormat"
          id={`${prefix}-date-format`}
          label={t('app.accounting.custom.dateFormat')}
          options={CUSTOM_DATE_FORMATS.map((value) => ({ value, label: value }))}
        />
      ) : null}
      {type === 'list' ? (
        <TextAreaField
          control={form.control}
          name="values"
          id={`${prefix}-values`}
          label={t('app.accounting.custom.values')}
          hint={t('app.accounting.custom.valuesHint')}
          rows={5}
          required
        />
      ) : null}
      <CheckboxField
        control={form.control}
        name="required"
        id={`${prefix}-required`}
        label={t('app.accounting.custom.required')}
      />
      {editing ? (
        <CheckboxField
          control={form.control}
          name="active"
          id={`${prefix}-active`}
          label={t('app.accounting.custom.active')}
        />
      ) : null}
      <div className="app-actions">
        <SubmitButton form={form} id={`${prefix}-submit`}>
          {editing ? t('app.people.form.save') : t('app.accounting.custom.create')}
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

/**
 * A company's custom data fields (issue 16 item 4): the fields its transactions carry besides their
 * coding — text, number, date or a list — added, edited, deactivated, deleted while no transaction
 * holds a value of them.
 */
export function CustomFieldsScreen() {
  const { t, tCount } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounting.custom.heading', number));
  const client = useQueryClient();
  const query = useQuery({
    queryKey: [...accountingKeys.company(number), 'custom-fields'],
    queryFn: ({ signal }) => listCustomFields(number, signal),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteCustomField(number, id),
    onSuccess: () => client.invalidateQueries({ queryKey: accountingKeys.company(number) }),
  });
  const list = query.data;
  const [done, setDone] = useState<Done | undefined>();
  const [editing, setEditing] = useState<CustomField | undefined>();
  const [deleting, setDeleting] = useState<CustomField | undefined>();
  const failed = query.isError
    ? problemOf(query.error)
    : remove.isError
      ? problemOf(remove.error)
      : undefined;

  const columns = useMemo((): DataColumn<CustomField>[] => {
    const col = dataColumns<CustomField>();
    return col.columns([
      col.accessor('label', {
        header: t('app.accounting.custom.label'),
        enableHiding: false,
        meta: { rowHeader: true },
      }),
      col.accessor('type', {
        header: t('app.accounting.custom.type'),
        cell: ({ row: { original: f } }) =>
          f.type === 'text'
            ? t('app.accounting.custom.describe.text', String(f.length))
            : f.type === 'number'
              ? t('app.accounting.custom.describe.number', String(f.length), String(f.decimals))
              : f.type === 'date'
                ? t('app.accounting.custom.describe.date', f.dateFormat)
                : t('app.accounting.custom.describe.list', String(f.values.length)),
      }),
      col.accessor((f) => (f.required ? 1 : 0), {
        id: 'required',
        header: t('app.accounting.custom.required'),
        cell: ({ row: { original: f } }) =>
          t(f.required ? 'app.accounting.custom.yes' : 'app.accounting.custom.no'),
      }),
      col.accessor((f) => (f.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ]);
  }, [t]);

  const rowActions: RowActions<CustomField> | undefined = list?.canModify
    ? {
        label: (f) => t('app.table.rowActions', f.label),
        actions: (f) => [
          { id: 'edit', label: t('app.accounting.action.edit'), onAction: () => setEditing(f) },
          {
            id: 'delete',
            label: t('app.accounting.action.delete'),
            danger: true,
            onAction: () => setDeleting(f),
          },
        ],
      }
    : undefined;

  return (
    <AccountingPage
      number={number}
      idPrefix="custom"
      heading={t('app.accounting.custom.heading', number)}
      intro={<p>{t('app.accounting.custom.intro')}</p>}
      readOnly={list?.readOnly === true}
      problem={failed}
      done={done ? t(`app.accounting.custom.done.${done}`) : undefined}
    >
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {list ? (
        <DataTable
          id="custom-fields"
          caption={t('app.accounting.custom.results')}
          columns={columns}
          data={list.rows}
          getRowId={(f) => String(f.id)}
          rowActions={rowActions}
          empty={t('app.accounting.custom.none')}
        />
      ) : null}
      {list?.canModify && editing ? (
        <section aria-labelledby="custom-edit-heading" key={editing.id}>
          <h2 id="custom-edit-heading">{t('app.accounting.editHeading', editing.label)}</h2>
          <FieldEditor
            number={number}
            editing={editing}
            onDone={() => {
              setEditing(undefined);
              setDone('updated');
            }}
            onCancel={() => setEditing(undefined)}
          />
        </section>
      ) : null}
      {list?.canModify ? (
        <section aria-labelledby="custom-create-heading">
          <h2 id="custom-create-heading">{t('app.accounting.custom.createHeading')}</h2>
          {list.remaining > 0 ? (
            <>
              <p>{tCount('app.accounting.custom.remaining', list.remaining)}</p>
              <FieldEditor number={number} onDone={() => setDone('created')} />
            </>
          ) : (
            <p>{t('app.accounting.custom.full')}</p>
          )}
        </section>
      ) : null}
      <ConfirmDialog
        open={deleting !== undefined}
        title={deleting ? t('app.accounting.custom.deleteLabel', deleting.label) : ''}
        body={t('app.accounting.confirm.toggle')}
        confirmLabel={t('app.accounting.action.delete')}
        onConfirm={() => {
          const field = deleting;
          setDeleting(undefined);
          setDone(undefined);
          if (field) remove.mutate(field.id, { onSuccess: () => setDone('deleted') });
        }}
        onCancel={() => setDeleting(undefined)}
      />
    </AccountingPage>
  );
}
