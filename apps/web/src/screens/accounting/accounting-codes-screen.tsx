import type { AccountingCode } from '@cardportal/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { AccountingPage } from './accounting-page.tsx';
import {
  accountingCodesQuery,
  type CodeForm,
  codeFormDefaults,
  codeFormSchema,
  useCreateCode,
  useDeleteCode,
  useUpdateCode,
} from './accounting-queries.ts';

type Done = KeySuffix<'app.accounting.done.'>;

/** The path of a code's values screen. */
export const valuesPath = (number: string, id: number) =>
  `/organisation/${encodeURIComponent(number)}/accounting-codes/${id}`;

/**
 * One code form: a new code (every field) or an existing one (its kind is fixed: a list code's values
 * or a text code's length stay meaningful). Entry shows for list codes, length for text codes; the
 * dependency offers the company's other list codes. The server's refusals land on their fields.
 */
function CodeEditor({
  idPrefix,
  codes,
  editing,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  codes: readonly AccountingCode[];
  editing?: AccountingCode | undefined;
  submitLabel: string;
  onSubmit: (values: CodeForm) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useApp();
  const initial: CodeForm = editing
    ? {
        name: editing.name,
        kind: editing.kind,
        entry: editing.entry,
        maxLength: String(editing.maxLength),
        dependsOn: editing.dependsOn ? String(editing.dependsOn.id) : '',
      }
    : codeFormDefaults;
  const form = useAppForm({
    schema: codeFormSchema,
    defaultValues: initial,
    codeFields: { 'accountingCode.name.duplicate': 'name' },
  });
  const kind = form.watch('kind');
  const parents = codes.filter((code) => code.kind === 'list' && code.id !== editing?.id);
  return (
    <AppForm
      form={form}
      id={`${idPrefix}-form`}
      errorId={`${idPrefix}-error`}
      requiredNote
      onSubmit={async (values) => {
        await onSubmit(values);
        if (!editing) form.reset(codeFormDefaults);
      }}
    >
      <TextField
        control={form.control}
        name="name"
        id={`${idPrefix}-name`}
        label={t('app.accounting.field.name')}
        autoComplete="off"
        required
      />
      {editing ? null : (
        <SelectField
          control={form.control}
          name="kind"
          id={`${idPrefix}-kind`}
          label={t('app.accounting.field.kind')}
          options={[
            { value: 'list', label: t('app.accounting.kind.list') },
            { value: 'text', label: t('app.accounting.kind.text') },
          ]}
        />
      )}
      {kind === 'list' ? (
        <>
          <SelectField
            control={form.control}
            name="entry"
            id={`${idPrefix}-entry`}
            label={t('app.accounting.field.entry')}
            hint={t('app.accounting.entryHint')}
            options={[
              { value: 'list', label: t('app.accounting.entry.list') },
              { value: 'entry', label: t('app.accounting.entry.entry') },
            ]}
          />
          <SelectField
            control={form.control}
            name="dependsOn"
            id={`${idPrefix}-depends-on`}
            label={t('app.accounting.field.dependsOn')}
            hint={t('app.accounting.dependsOnHint')}
            placeholder={t('app.accounting.noDependency')}
            options={parents.map((code) => ({ value: String(code.id), label: code.name }))}
          />
        </>
      ) : (
        <TextField
          control={form.control}
          name="maxLength"
          id={`${idPrefix}-max-length`}
          label={t('app.accounting.field.maxLength')}
          hint={t('app.accounting.maxLengthHint')}
          inputMode="numeric"
          autoComplete="off"
          required
        />
      )}
      <div className="app-actions">
        <SubmitButton form={form} id={`${idPrefix}-submit`}>
          {submitLabel}
        </SubmitButton>
        {onCancel ? (
          <button type="button" className="app-button" id={`${idPrefix}-cancel`} onClick={onCancel}>
            {t('common.cancel')}
          </button>
        ) : null}
      </div>
    </AppForm>
  );
}

/** The form's values as the API takes them. */
const toBody = (values: CodeForm) => ({
  name: values.name.trim(),
  entry: values.entry,
  ...(values.kind === 'text' ? { maxLength: Number(values.maxLength) } : {}),
  dependsOn: values.kind === 'list' && values.dependsOn !== '' ? Number(values.dependsOn) : null,
});

/**
 * A company's accounting codes (issue 16 item 1): the segments of its ledger string in order — added,
 * edited, moved up and down, deactivated and reactivated, deleted (confirmed; refused while another code
 * depends on it) — each list code's values one click away.
 */
export function AccountingCodesScreen() {
  const { t, tCount, languageTag } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounting.heading', number));
  const query = useQuery(accountingCodesQuery(number));
  const list = query.data;
  const create = useCreateCode(number);
  const update = useUpdateCode(number);
  const remove = useDeleteCode(number);
  const [done, setDone] = useState<Done | undefined>();
  const [editing, setEditing] = useState<AccountingCode | undefined>();
  const [confirming, setConfirming] = useState<{ code: AccountingCode; action: 'toggle' | 'delete' }>();
  const canModify = list?.canModify === true;
  const failed = query.isError
    ? problemOf(query.error)
    : update.isError
      ? problemOf(update.error)
      : remove.isError
        ? problemOf(remove.error)
        : undefined;

  const act = (code: AccountingCode, action: 'toggle' | 'delete' | 'up' | 'down') => {
    setConfirming(undefined);
    setDone(undefined);
    if (action === 'delete') {
      remove.mutate(code.id, { onSuccess: () => setDone('deleted') });
      return;
    }
    const patch =
      action === 'toggle'
        ? { active: !code.active }
        : { position: code.position + (action === 'up' ? -1 : 1) };
    update.mutate(
      { id: code.id, patch },
      {
        onSuccess: () =>
          setDone(action === 'toggle' ? (code.active ? 'deactivated' : 'reactivated') : 'moved'),
      },
    );
  };

  const columns = useMemo((): DataColumn<AccountingCode>[] => {
    const count = new Intl.NumberFormat(languageTag);
    const col = dataColumns<AccountingCode>();
    return col.columns([
      col.accessor('position', {
        header: t('app.accounting.field.position'),
        meta: { className: 'app-num' },
        cell: (cell) => count.format(cell.getValue()),
      }),
      col.accessor('name', {
        header: t('app.accounting.field.name'),
        enableHiding: false,
        meta: { rowHeader: true },
        cell: ({ row: { original: code } }) =>
          code.kind === 'list' ? (
            <Link to={valuesPath(number, code.id)} aria-label={t('app.accounting.valuesLabel', code.name)}>
              {code.name}
            </Link>
          ) : (
            code.name
          ),
      }),
      col.accessor('kind', {
        header: t('app.accounting.field.kind'),
        cell: ({ row: { original: code } }) =>
          code.kind === 'text'
            ? `${t('app.accounting.kind.text')} (${count.format(code.maxLength)})`
            : t('app.accounting.kind.list'),
      }),
      col.accessor('effectiveEntry', {
        header: t('app.accounting.field.entry'),
        cell: ({ row: { original: code } }) => t(`app.accounting.entry.${code.effectiveEntry}`),
      }),
      col.accessor((code) => code.dependsOn?.name ?? '', {
        id: 'dependsOn',
        header: t('app.accounting.field.dependsOn'),
        cell: ({ row: { original: code } }) => code.dependsOn?.name ?? t('app.none'),
      }),
      col.accessor('valueCount', {
        header: t('app.accounting.field.values'),
        meta: { className: 'app-num' },
        cell: ({ row: { original: code } }) =>
          code.kind === 'list' ? count.format(code.valueCount) : t('app.none'),
      }),
      col.accessor((code) => (code.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ]);
  }, [t, languageTag, number]);

  const rows = list?.rows ?? [];
  // The row's actions in its menu (as every grid): edit, move, deactivate or reactivate, delete.
  const rowActions: RowActions<AccountingCode> | undefined = canModify
    ? {
        label: (code) => t('app.table.rowActions', code.name),
        actions: (code) => [
          { id: 'edit', label: t('app.accounting.action.edit'), onAction: () => setEditing(code) },
          ...(code.position > 1
            ? [{ id: 'up', label: t('app.accounting.action.moveUp'), onAction: () => act(code, 'up') }]
            : []),
          ...(code.position < rows.length
            ? [{ id: 'down', label: t('app.accounting.action.moveDown'), onAction: () => act(code, 'down') }]
            : []),
          {
            id: code.active ? 'deactivate' : 'reactivate',
            label: t(`app.people.action.${code.active ? 'deactivate' : 'reactivate'}`),
            danger: code.active,
            onAction: () => setConfirming({ code, action: 'toggle' }),
          },
          {
            id: 'delete',
            label: t('app.accounting.action.delete'),
            danger: true,
            onAction: () => setConfirming({ code, action: 'delete' }),
          },
        ],
      }
    : undefined;

  const confirmTitle = !confirming
    ? ''
    : confirming.action === 'delete'
      ? t('app.accounting.deleteLabel', confirming.code.name)
      : t(
          `app.accounting.${confirming.code.active ? 'deactivateLabel' : 'reactivateLabel'}`,
          confirming.code.name,
        );

  return (
    <AccountingPage
      number={number}
      idPrefix="accounting"
      heading={t('app.accounting.heading', number)}
      intro={<p>{t('app.accounting.intro')}</p>}
      readOnly={list?.readOnly === true}
      problem={failed}
      done={done ? t(`app.accounting.done.${done}`) : undefined}
    >
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {list ? (
        <DataTable
          id="accounting-codes"
          caption={t('app.accounting.results')}
          columns={columns}
          data={rows}
          getRowId={(code) => String(code.id)}
          loading={query.isFetching && !query.isPending}
          rowActions={rowActions}
          empty={t('app.accounting.none')}
        />
      ) : null}
      {canModify && editing ? (
        <section aria-labelledby="code-edit-heading" key={editing.id}>
          <h2 id="code-edit-heading">{t('app.accounting.editHeading', editing.name)}</h2>
          <CodeEditor
            idPrefix="code-edit"
            codes={rows}
            editing={editing}
            submitLabel={t('app.people.form.save')}
            onSubmit={async (values) => {
              setDone(undefined);
              const { maxLength, dependsOn, ...rest } = toBody(values);
              await update.mutateAsync({
                id: editing.id,
                patch: {
                  ...rest,
                  ...(editing.kind === 'text' ? { maxLength } : {}),
                  ...((editing.dependsOn?.id ?? null) !== dependsOn ? { dependsOn } : {}),
                },
              });
              setEditing(undefined);
              setDone('updated');
            }}
            onCancel={() => setEditing(undefined)}
          />
        </section>
      ) : null}
      {canModify ? (
        <section aria-labelledby="code-create-heading">
          <h2 id="code-create-heading">{t('app.accounting.createHeading')}</h2>
          {list.remaining > 0 ? (
            <>
              <p id="code-remaining">{tCount('app.accounting.remaining', list.remaining)}</p>
              <CodeEditor
                idPrefix="code-create"
                codes={rows}
                submitLabel={t('app.accounting.create')}
                onSubmit={async (values) => {
                  setDone(undefined);
                  await create.mutateAsync({ ...toBody(values), kind: values.kind });
                  setDone('created');
                }}
              />
            </>
          ) : (
            <p id="code-remaining">{t('app.accounting.full')}</p>
          )}
        </section>
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirmTitle}
        body={t(
          confirming?.action === 'delete' ? 'app.accounting.confirm.delete' : 'app.accounting.confirm.toggle',
        )}
        confirmLabel={
          !confirming
            ? ''
            : confirming.action === 'delete'
              ? t('app.accounting.action.delete')
              : t(`app.people.action.${confirming.code.active ? 'deactivate' : 'reactivate'}`)
        }
        onConfirm={() => {
          if (confirming) act(confirming.code, confirming.action);
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </AccountingPage>
  );
}
