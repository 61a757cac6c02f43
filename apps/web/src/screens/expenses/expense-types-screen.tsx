import {
  EXPENSE_CATEGORIES,
  EXPENSE_LIMITS,
  EXPENSE_PROPERTY_KINDS,
  type ExpenseType,
  expenseTypeProblems,
} from '@cardportal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { saveExpenseRecord } from '../../api/expenses.ts';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { FieldArrayList } from '../../frame/form/field-array.tsx';
import { CheckboxField, SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { ExpensePage, expenseKeys, useExpenseSettings } from './expense-page.tsx';
import { FormActions, RecordsSection } from './records-section.tsx';

const formSchema = z
  .object({
    name: z.string(),
    category: z.enum(EXPENSE_CATEGORIES),
    properties: z.array(
      z.object({ label: z.string(), kind: z.enum(EXPENSE_PROPERTY_KINDS), required: z.boolean() }),
    ),
    active: z.boolean(),
  })
  .superRefine((v, ctx) => {
    for (const [field, message] of Object.entries(expenseTypeProblems(v)))
      ctx.addIssue({ code: 'custom', path: [field], message });
  });
type Form = z.infer<typeof formSchema>;

const empty: Form = { name: '', category: 'general', properties: [], active: true };

/** An expense type's form: its name, what it is for, the properties its lines capture, active. */
function TypeEditor({
  number,
  editing,
  onDone,
  onCancel,
}: {
  number: string;
  editing?: ExpenseType | undefined;
  onDone: () => void;
  onCancel?: (() => void) | undefined;
}) {
  const { t } = useApp();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (v: Form) =>
      saveExpenseRecord(number, 'types', editing?.id, {
        ...v,
        name: v.name.trim(),
        properties: v.properties.map((p) => ({ ...p, label: p.label.trim() })),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: expenseKeys.company(number) }),
  });
  const form = useAppForm({
    schema: formSchema,
    defaultValues: editing
      ? {
          name: editing.name,
          category: editing.category,
          properties: editing.properties,
          active: editing.active,
        }
      : empty,
    codeFields: { 'expenseType.name.duplicate': 'name' },
  });
  const prefix = editing ? 'type-edit' : 'type-create';
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
        name="category"
        id={`${prefix}-category`}
        label={t('app.expenses.types.category')}
        options={EXPENSE_CATEGORIES.map((value) => ({
          value,
          label: t(`app.expenses.types.categories.${value}`),
        }))}
      />
      <FieldArrayList
        control={form.control}
        name="properties"
        idPrefix={`${prefix}-properties`}
        legend={t('app.expenses.types.properties')}
        addLabel={t('app.expenses.types.addProperty')}
        removeLabel={(i) => t('app.expenses.types.removeProperty', String(i + 1))}
        newItem={() => ({ label: '', kind: 'text' as const, required: false })}
        max={EXPENSE_LIMITS.propertiesPerType}
      >
        {(index) => (
          <>
            <TextField
              control={form.control}
              name={`properties.${index}.label`}
              id={`${prefix}-properties-${index}-label`}
              label={t('app.expenses.types.propertyLabel', String(index + 1))}
              required
            />
            <SelectField
              control={form.control}
              name={`properties.${index}.kind`}
              id={`${prefix}-properties-${index}-kind`}
              label={t('app.expenses.types.propertyKind', String(index + 1))}
              options={EXPENSE_PROPERTY_KINDS.map((value) => ({
                value,
                label: t(`app.expenses.types.kinds.${value}`),
              }))}
            />
            <CheckboxField
              control={form.control}
              name={`properties.${index}.required`}
              id={`${prefix}-properties-${index}-required`}
              label={t('app.expenses.types.propertyRequired', String(index + 1))}
            />
          </>
        )}
      </FieldArrayList>
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
        createLabel={t('app.expenses.types.create')}
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
 * A company's expense types (issue 17 item 1): at most 50, each general or priced by mileage, with at
 * most 10 properties its report lines capture; added, changed, deactivated, deleted.
 */
export function ExpenseTypesScreen() {
  const { t, format } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.expenses.types.heading', number));
  const query = useExpenseSettings(number);
  const settings = query.data;

  const columns = useMemo((): DataColumn<ExpenseType>[] => {
    const col = dataColumns<ExpenseType>();
    return col.columns([
      col.accessor('name', {
        header: t('app.expenses.name'),
        enableHiding: false,
        meta: { rowHeader: true },
      }),
      col.accessor('category', {
        header: t('app.expenses.types.category'),
        cell: ({ row }) => t(`app.expenses.types.categories.${row.original.category}`),
      }),
      col.accessor((x) => x.properties.length, {
        id: 'properties',
        header: t('app.expenses.types.properties'),
        cell: ({ row }) => row.original.properties.map((p) => p.label).join(', ') || t('app.expenses.none'),
      }),
      col.accessor((x) => (x.limit ? Number(x.limit.minor) : -1), {
        id: 'limit',
        header: t('app.expenses.policy.limit'),
        cell: ({ row: { original: x } }) =>
          x.limit ? format.money(x.limit.minor, x.limit.currency, x.limit.exponent) : t('app.expenses.none'),
      }),
      col.accessor((x) => (x.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ]);
  }, [t, format]);

  return (
    <ExpensePage
      number={number}
      idPrefix="types"
      heading={t('app.expenses.types.heading', number)}
      intro={t('app.expenses.types.intro')}
      readOnly={settings?.readOnly === true}
      problem={query.isError ? problemOf(query.error) : undefined}
    >
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {settings ? (
        <RecordsSection
          number={number}
          part="types"
          idPrefix="expense-types"
          heading={t('app.expenses.types.results')}
          caption={t('app.expenses.types.results')}
          columns={columns}
          rows={settings.types}
          canModify={settings.canModify}
          remaining={EXPENSE_LIMITS.typesPerCompany - settings.types.length}
          nameOf={(x) => x.name}
          emptyText={t('app.expenses.types.empty')}
          createHeading={t('app.expenses.types.createHeading')}
          fullText={t('app.expenses.types.full')}
          editor={(props) => <TypeEditor number={number} {...props} />}
        />
      ) : null}
    </ExpensePage>
  );
}
