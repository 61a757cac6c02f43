import { type AccountingScheme, type GroupScheme, OVERRIDE_LEVELS } from '@cardportal/domain';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { FieldArrayList } from '../../frame/form/field-array.tsx';
import { CheckboxField, SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { AccountingPage } from './accounting-page.tsx';
import {
  accountingCodesQuery,
  groupSchemesQuery,
  type SchemeForm,
  schemeFormSchema,
  schemesQuery,
  subsetsQuery,
  useDeleteScheme,
  useSaveScheme,
  useSetGroupScheme,
} from './accounting-queries.ts';

type Done = KeySuffix<'app.accounting.schemes.done.'>;

const emptyScheme: SchemeForm = {
  name: '',
  isDefault: false,
  lines: [{ codeId: '', required: false, override: 'cardholder', subsetId: '' }],
};

/**
 * A scheme's form: its name, whether it is the company's default, and its lines — one per code that
 * applies, in order, each required or not, with who may change it on a transaction and an optional
 * subset of that code's values. The server checks the lines (parents present, subsets of the right code).
 */
function SchemeEditor({
  number,
  editing,
  onDone,
  onCancel,
}: {
  number: string;
  editing?: AccountingScheme | undefined;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const { t } = useApp();
  const codes = useQuery(accountingCodesQuery(number)).data?.rows ?? [];
  const subsets = useQuery(subsetsQuery(number)).data?.rows ?? [];
  const save = useSaveScheme(number);
  const initial: SchemeForm = editing
    ? {
        name: editing.name,
        isDefault: editing.isDefault,
        lines: editing.lines.map((l) => ({
          codeId: String(l.code.id),
          required: l.required,
          override: l.override,
          subsetId: l.subset ? String(l.subset.id) : '',
        })),
      }
    : emptyScheme;
  const form = useAppForm({
    schema: schemeFormSchema,
    defaultValues: initial,
    codeFields: { 'accountingScheme.name.duplicate': 'name' },
  });
  const lines = form.watch('lines');
  const prefix = editing ? 'scheme-edit' : 'scheme-create';
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
            isDefault: values.isDefault,
            lines: values.lines.map((l) => ({
              codeId: Number(l.codeId),
              required: l.required,
              override: l.override,
              subsetId: l.subsetId === '' ? null : Number(l.subsetId),
            })),
          },
        });
        if (!editing) form.reset(emptyScheme);
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
      <CheckboxField
        control={form.control}
        name="isDefault"
        id={`${prefix}-default`}
        label={t('app.accounting.schemes.isDefault')}
        hint={t('app.accounting.schemes.defaultHint')}
      />
      <FieldArrayList
        control={form.control}
        name="lines"
        idPrefix={`${prefix}-lines`}
        legend={t('app.accounting.schemes.lines')}
        addLabel={t('app.accounting.schemes.addLine')}
        removeLabel={(index) => t('app.accounting.schemes.removeLine', String(index + 1))}
        newItem={() => ({ codeId: '', required: false, override: 'cardholder' as const, subsetId: '' })}
        min={1}
        max={codes.length}
      >
        {(index) => {
          const codeId = Number(lines[index]?.codeId ?? 0);
          const code = codes.find((c) => c.id === codeId);
          const own = subsets.filter((s) => s.code.id === codeId);
          return (
            <div className="app-form app-form--inline">
              <SelectField
                control={form.control}
                name={`lines.${index}.codeId`}
                id={`${prefix}-lines-${index}-code`}
                label={t('app.accounting.schemes.code', String(index + 1))}
                placeholder={t('app.accounting.schemes.chooseCode')}
                options={codes.filter((c) => c.active).map((c) => ({ value: String(c.id), label: c.name }))}
                required
              />
              <CheckboxField
                control={form.control}
                name={`lines.${index}.required`}
                id={`${prefix}-lines-${index}-required`}
                label={t('app.accounting.schemes.required')}
              />
              <SelectField
                control={form.control}
                name={`lines.${index}.override`}
                id={`${prefix}-lines-${index}-override`}
                label={t('app.accounting.schemes.override')}
                options={OVERRIDE_LEVELS.map((level) => ({
                  value: level,
                  label: t(`app.accounting.override.${level}`),
                }))}
              />
              {code?.kind === 'list' ? (
                <SelectField
                  control={form.control}
                  name={`lines.${index}.subsetId`}
                  id={`${prefix}-lines-${index}-subset`}
                  label={t('app.accounting.schemes.subset')}
                  placeholder={t('app.accounting.schemes.allValues')}
                  options={own.map((s) => ({ value: String(s.id), label: s.name }))}
                />
              ) : null}
            </div>
          );
        }}
      </FieldArrayList>
      <div className="app-actions">
        <SubmitButton form={form} id={`${prefix}-submit`}>
          {editing ? t('app.people.form.save') : t('app.accounting.schemes.create')}
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

const groupFormSchema = z.object({ schemeId: z.string() });

/** One account group's scheme, chosen in its row (empty: the company's default). */
function GroupSchemeForm({
  number,
  group,
  schemes,
  onDone,
}: {
  number: string;
  group: GroupScheme;
  schemes: readonly AccountingScheme[];
  onDone: () => void;
}) {
  const { t } = useApp();
  const set = useSetGroupScheme(number);
  const form = useAppForm({
    schema: groupFormSchema,
    defaultValues: { schemeId: group.scheme ? String(group.scheme.id) : '' },
  });
  return (
    <AppForm
      form={form}
      errorId={`group-scheme-${group.groupId}-error`}
      inline
      onSubmit={async ({ schemeId }) => {
        await set.mutateAsync({
          groupId: group.groupId,
          schemeId: schemeId === '' ? null : Number(schemeId),
        });
        onDone();
      }}
    >
      <SelectField
        control={form.control}
        name="schemeId"
        id={`group-scheme-${group.groupId}`}
        label={t('app.accounting.schemes.groupScheme', group.name)}
        placeholder={t('app.accounting.schemes.companyDefault')}
        options={schemes.map((s) => ({ value: String(s.id), label: s.name }))}
      />
      <SubmitButton form={form} id={`group-scheme-${group.groupId}-submit`}>
        {t('app.accounting.schemes.apply')}
      </SubmitButton>
    </AppForm>
  );
}

/**
 * A company's accounting schemes (issue 16 item 2): which codes apply to which accounts. The default
 * codes every account without a scheme of its own or of its group; each account group takes one here.
 * A scheme in use (assigned, or the default) cannot be deleted.
 */
export function AccountingSchemesScreen() {
  const { t, languageTag } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounting.schemes.heading', number));
  const query = useQuery(schemesQuery(number));
  const groups = useQuery(groupSchemesQuery(number));
  const list = query.data;
  const remove = useDeleteScheme(number);
  const [done, setDone] = useState<Done | undefined>();
  const [editing, setEditing] = useState<AccountingScheme | undefined>();
  const [deleting, setDeleting] = useState<AccountingScheme | undefined>();
  const canModify = list?.canModify === true;
  const failed = query.isError
    ? problemOf(query.error)
    : remove.isError
      ? problemOf(remove.error)
      : undefined;

  const columns = useMemo((): DataColumn<AccountingScheme>[] => {
    const count = new Intl.NumberFormat(languageTag);
    const col = dataColumns<AccountingScheme>();
    return col.columns([
      col.accessor('name', {
        header: t('app.accounting.field.name'),
        enableHiding: false,
        meta: { rowHeader: true },
        cell: ({ row: { original: scheme } }) =>
          scheme.isDefault ? `${scheme.name} (${t('app.accounting.schemes.default')})` : scheme.name,
      }),
      col.accessor((scheme) => scheme.lines.map((l) => l.code.name).join(', '), {
        id: 'codes',
        header: t('app.accounting.schemes.lines'),
        cell: ({ row: { original: scheme } }) => (
          <ul className="app-plain-list">
            {scheme.lines.map((line) => (
              <li key={line.code.id}>
                {line.code.name}
                {line.required ? ` (${t('app.accounting.schemes.required')})` : ''}
                {' — '}
                {t(`app.accounting.override.${line.override}`)}
                {line.subset ? ` — ${line.subset.name}` : ''}
              </li>
            ))}
          </ul>
        ),
      }),
      col.accessor('accounts', {
        header: t('app.accounting.schemes.accounts'),
        meta: { className: 'app-num' },
        cell: (cell) => count.format(cell.getValue()),
      }),
      col.accessor('groups', {
        header: t('app.accounting.schemes.groups'),
        meta: { className: 'app-num' },
        cell: (cell) => count.format(cell.getValue()),
      }),
    ]);
  }, [t, languageTag]);

  const rowActions: RowActions<AccountingScheme> | undefined = canModify
    ? {
        label: (scheme) => t('app.table.rowActions', scheme.name),
        actions: (scheme) => [
          { id: 'edit', label: t('app.accounting.action.edit'), onAction: () => setEditing(scheme) },
          {
            id: 'delete',
            label: t('app.accounting.action.delete'),
            danger: true,
            onAction: () => setDeleting(scheme),
          },
        ],
      }
    : undefined;

  const groupColumns = useMemo((): DataColumn<GroupScheme>[] => {
    const col = dataColumns<GroupScheme>();
    return col.columns([
      col.accessor('name', {
        header: t('app.accounting.schemes.group'),
        enableHiding: false,
        meta: { rowHeader: true },
      }),
      col.accessor((g) => g.scheme?.name ?? '', {
        id: 'scheme',
        header: t('app.accounting.schemes.scheme'),
        cell: ({ row: { original: group } }) =>
          canModify && list ? (
            <GroupSchemeForm
              number={number}
              group={group}
              schemes={list.rows}
              onDone={() => setDone('groupChanged')}
            />
          ) : (
            (group.scheme?.name ?? t('app.accounting.schemes.companyDefault'))
          ),
      }),
    ]);
  }, [t, canModify, list, number]);

  return (
    <AccountingPage
      number={number}
      idPrefix="schemes"
      heading={t('app.accounting.schemes.heading', number)}
      intro={<p>{t('app.accounting.schemes.intro')}</p>}
      readOnly={list?.readOnly === true}
      problem={failed}
      done={done ? t(`app.accounting.schemes.done.${done}`) : undefined}
    >
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {list ? (
        <DataTable
          id="scheme-results"
          caption={t('app.accounting.schemes.results')}
          columns={columns}
          data={list.rows}
          getRowId={(scheme) => String(scheme.id)}
          loading={query.isFetching && !query.isPending}
          rowActions={rowActions}
          empty={t('app.accounting.schemes.none')}
        />
      ) : null}
      {canModify && editing ? (
        <section aria-labelledby="scheme-edit-heading" key={editing.id}>
          <h2 id="scheme-edit-heading">{t('app.accounting.editHeading', editing.name)}</h2>
          <SchemeEditor
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
        <section aria-labelledby="scheme-create-heading">
          <h2 id="scheme-create-heading">{t('app.accounting.schemes.createHeading')}</h2>
          <SchemeEditor number={number} onDone={() => setDone('created')} />
        </section>
      ) : null}
      {groups.data ? (
        <section aria-labelledby="group-schemes-heading">
          <h2 id="group-schemes-heading">{t('app.accounting.schemes.groupsHeading')}</h2>
          <DataTable
            id="group-scheme-results"
            caption={t('app.accounting.schemes.groupsHeading')}
            columns={groupColumns}
            data={groups.data.rows}
            getRowId={(group) => String(group.groupId)}
            empty={t('app.accounting.schemes.noGroups')}
          />
        </section>
      ) : null}
      <ConfirmDialog
        open={deleting !== undefined}
        title={deleting ? t('app.accounting.schemes.deleteLabel', deleting.name) : ''}
        body={t('app.accounting.confirm.toggle')}
        confirmLabel={t('app.accounting.action.delete')}
        onConfirm={() => {
          const scheme = deleting;
          setDeleting(undefined);
          setDone(undefined);
          if (scheme) remove.mutate(scheme.id, { onSuccess: () => setDone('deleted') });
        }}
        onCancel={() => setDeleting(undefined)}
      />
    </AccountingPage>
  );
}
