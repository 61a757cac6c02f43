import { type AccountingSubset, splitCodeList } from '@cardportal/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextAreaField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { AccountingPage } from './accounting-page.tsx';
import {
  accountingCodesQuery,
  subsetFormSchema,
  subsetsQuery,
  useDeleteSubset,
  useSaveSubset,
} from './accounting-queries.ts';

type Done = KeySuffix<'app.accounting.subsets.done.'>;

/** A subset's form: its name, its list code, and its values as customer codes (one per line or comma-separated). */
function SubsetEditor({
  number,
  editing,
  onDone,
  onCancel,
}: {
  number: string;
  editing?: AccountingSubset | undefined;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const { t } = useApp();
  const codes = useQuery(accountingCodesQuery(number)).data?.rows ?? [];
  const save = useSaveSubset(number);
  const empty = { name: '', codeId: '', values: '' };
  const form = useAppForm({
    schema: subsetFormSchema,
    defaultValues: editing
      ? {
          name: editing.name,
          codeId: String(editing.code.id),
          values: editing.values.map((v) => v.value).join('\n'),
        }
      : empty,
    codeFields: { 'accountingSubset.name.duplicate': 'name' },
  });
  const prefix = editing ? 'subset-edit' : 'subset-create';
  return (
    <AppForm
      form={form}
      id={`${prefix}-form`}
      errorId={`${prefix}-error`}
      requiredNote
      onSubmit={async (values) => {
        await save.mutateAsync({
          id: editing?.id,
          body: {
            name: values.name.trim(),
            codeId: Number(values.codeId),
            values: splitCodeList(values.values),
          },
        });
        if (!editing) form.reset(empty);
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="name"
        id={`${prefix}-name`}
        label={t('app.accounting.field.name')}
        autoComplete="off"
        required
      />
      <SelectField
        control={form.control}
        name="codeId"
        id={`${prefix}-code`}
        label={t('app.accounting.subsets.code')}
        placeholder={t('app.accounting.schemes.chooseCode')}
        options={codes.filter((c) => c.kind === 'list').map((c) => ({ value: String(c.id), label: c.name }))}
        required
      />
      <TextAreaField
        control={form.control}
        name="values"
        id={`${prefix}-values`}
        label={t('app.accounting.subsets.values')}
        hint={t('app.accounting.subsets.valuesHint')}
        rows={6}
        required
      />
      <div className="app-actions">
        <SubmitButton form={form} id={`${prefix}-submit`}>
          {editing ? t('app.people.form.save') : t('app.accounting.subsets.create')}
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
 * A company's accounting subsets (issue 16 item 2): named parts of one list code's values that a
 * scheme line can offer instead of all of them. A subset a scheme uses cannot be deleted.
 */
export function AccountingSubsetsScreen() {
  const { t, languageTag } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounting.subsets.heading', number));
  const query = useQuery(subsetsQuery(number));
  const list = query.data;
  const remove = useDeleteSubset(number);
  const [done, setDone] = useState<Done | undefined>();
  const [editing, setEditing] = useState<AccountingSubset | undefined>();
  const [deleting, setDeleting] = useState<AccountingSubset | undefined>();
  const canModify = list?.canModify === true;
  const failed = query.isError
    ? problemOf(query.error)
    : remove.isError
      ? problemOf(remove.error)
      : undefined;

  const columns = useMemo((): DataColumn<AccountingSubset>[] => {
    const count = new Intl.NumberFormat(languageTag);
    const col = dataColumns<AccountingSubset>();
    return col.columns([
      col.accessor('name', {
        header: t('app.accounting.field.name'),
        enableHiding: false,
        meta: { rowHeader: true },
      }),
      col.accessor((s) => s.code.name, { id: 'code', header: t('app.accounting.subsets.code') }),
      col.accessor((s) => s.values.length, {
        id: 'values',
        header: t('app.accounting.subsets.values'),
        cell: ({ row: { original: subset } }) =>
          `${count.format(subset.values.length)}: ${subset.values
            .slice(0, 8)
            .map((v) => v.value)
            .join(', ')}${subset.values.length > 8 ? ', …' : ''}`,
      }),
      col.accessor((s) => s.usedBy.join(', '), {
        id: 'usedBy',
        header: t('app.accounting.subsets.usedBy'),
        cell: ({ row: { original: subset } }) => subset.usedBy.join(', ') || t('app.none'),
      }),
    ]);
  }, [t, languageTag]);

  const rowActions: RowActions<AccountingSubset> | undefined = canModify
    ? {
        label: (subset) => t('app.table.rowActions', subset.name),
        actions: (subset) => [
          { id: 'edit', label: t('app.accounting.action.edit'), onAction: () => setEditing(subset) },
          {
            id: 'delete',
            label: t('app.accounting.action.delete'),
            danger: true,
            onAction: () => setDeleting(subset),
          },
        ],
      }
    : undefined;

  return (
    <AccountingPage
      number={number}
      idPrefix="subsets"
      heading={t('app.accounting.subsets.heading', number)}
      intro={<p>{t('app.accounting.subsets.intro')}</p>}
      readOnly={list?.readOnly === true}
      problem={failed}
      done={done ? t(`app.accounting.subsets.done.${done}`) : undefined}
    >
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {list ? (
        <DataTable
          id="subset-results"
          caption={t('app.accounting.subsets.results')}
          columns={columns}
          data={list.rows}
          getRowId={(subset) => String(subset.id)}
          loading={query.isFetching && !query.isPending}
          rowActions={rowActions}
          empty={t('app.accounting.subsets.none')}
        />
      ) : null}
      {canModify && editing ? (
        <section aria-labelledby="subset-edit-heading" key={editing.id}>
          <h2 id="subset-edit-heading">{t('app.accounting.editHeading', editing.name)}</h2>
          <SubsetEditor
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
      {canModify ? (
        <section aria-labelledby="subset-create-heading">
          <h2 id="subset-create-heading">{t('app.accounting.subsets.createHeading')}</h2>
          <SubsetEditor number={number} onDone={() => setDone('created')} />
        </section>
      ) : null}
      <ConfirmDialog
        open={deleting !== undefined}
        title={deleting ? t('app.accounting.subsets.deleteLabel', deleting.name) : ''}
        body={t('app.accounting.confirm.toggle')}
        confirmLabel={t('app.accounting.action.delete')}
        onConfirm={() => {
          const subset = deleting;
          setDeleting(undefined);
          setDone(undefined);
          if (subset) remove.mutate(subset.id, { onSuccess: () => setDone('deleted') });
        }}
        onCancel={() => setDeleting(undefined)}
      />
    </AccountingPage>
  );
}
