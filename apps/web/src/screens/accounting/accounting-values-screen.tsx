import type { AccountingCode, AccountingValue } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { EmptyState } from '../../frame/empty-state.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { AccountingNav } from './accounting-nav.tsx';
import {
  accountingValuesQuery,
  descriptionFormSchema,
  useCreateValue,
  useDeleteValue,
  useUpdateValue,
  valueFormSchema,
  valueSearchSchema,
} from './accounting-queries.ts';
import { ValuesFile } from './values-file.tsx';

type Done = KeySuffix<'app.accounting.values.done.'>;

/** A new value: its customer code, description, and (a dependent code) the parent value's code. */
function NewValueForm({
  number,
  code,
  onDone,
}: {
  number: string;
  code: AccountingCode;
  onDone: () => void;
}) {
  const { t } = useApp();
  const create = useCreateValue(number, String(code.id));
  const empty = { value: '', description: '', parent: '' };
  const form = useAppForm({
    schema: valueFormSchema,
    defaultValues: empty,
    codeFields: { 'accountingValue.value.duplicate': 'value' },
  });
  return (
    <AppForm
      form={form}
      id="value-create-form"
      errorId="value-create-error"
      requiredNote
      onSubmit={async (values) => {
        await create.mutateAsync({
          value: values.value.trim(),
          description: values.description.trim(),
          parent: code.dependsOn ? values.parent.trim() : null,
        });
        form.reset(empty);
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="value"
        id="value-create-value"
        label={t('app.accounting.values.field.value')}
        hint={t('app.accounting.values.valueHint')}
        autoComplete="off"
        spellCheck={false}
        required
      />
      <TextField
        control={form.control}
        name="description"
        id="value-create-description"
        label={t('app.accounting.values.field.description')}
        autoComplete="off"
      />
      {code.dependsOn ? (
        <TextField
          control={form.control}
          name="parent"
          id="value-create-parent"
          label={t('app.accounting.values.field.parent', code.dependsOn.name)}
          hint={t('app.accounting.values.parentHint', code.dependsOn.name)}
          autoComplete="off"
          spellCheck={false}
          required
        />
      ) : null}
      <div className="app-actions">
        <SubmitButton form={form} id="value-create-submit">
          {t('app.accounting.values.create')}
        </SubmitButton>
      </div>
    </AppForm>
  );
}

/** A value's description, edited in its row. */
function DescriptionForm({
  number,
  codeId,
  value,
  onDone,
  onCancel,
}: {
  number: string;
  codeId: string;
  value: AccountingValue;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useApp();
  const update = useUpdateValue(number, codeId);
  const form = useAppForm({
    schema: descriptionFormSchema,
    defaultValues: { description: value.description },
  });
  return (
    <AppForm
      form={form}
      errorId={`value-describe-${value.id}-error`}
      inline
      onSubmit={async ({ description }) => {
        await update.mutateAsync({ valueId: value.id, patch: { description: description.trim() } });
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="description"
        id={`value-describe-${value.id}`}
        label={t('app.accounting.values.describeLabel', value.value)}
        autoComplete="off"
      />
      <SubmitButton form={form} id={`value-describe-${value.id}-submit`}>
        {t('app.people.form.save')}
      </SubmitButton>
      <button type="button" className="app-button" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </AppForm>
  );
}

/**
 * One accounting code's values (issue 16 item 1): listed by code and paged by key — or, past 10,000
 * values, searched only (seed 001 §9) — found by the start of the code or the description, filtered by
 * status; added (a dependent code's value under its parent value), described, deactivated and
 * reactivated, deleted (confirmed; refused while a dependent code's value belongs to it).
 */
export function AccountingValuesScreen() {
  const { t, tCount, problemText } = useApp();
  const { number = '', id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = params.get('status') ?? '';
  const paging = useKeysetCursor();
  const query = useQuery({
    ...accountingValuesQuery(number, id, {
      q: q.trim() || undefined,
      status: status || undefined,
      ...paging.cursor,
    }),
    placeholderData: keepPreviousData,
  });
  const result = query.data;
  const code = result?.code;
  usePageTitle(code ? t('app.accounting.values.heading', code.name) : t('app.accounting.results'));
  const update = useUpdateValue(number, id);
  const remove = useDeleteValue(number, id);
  const [done, setDone] = useState<Done | undefined>();
  const [describing, setDescribing] = useState<number | undefined>();
  const [confirming, setConfirming] = useState<{ value: AccountingValue; action: 'toggle' | 'delete' }>();
  const form = useAppForm({ schema: valueSearchSchema, defaultValues: { q, status } });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL's criteria are the form's
  useEffect(() => {
    form.reset({ q, status });
  }, [q, status]);

  const canModify = result?.canModify === true;
  const failed = query.isError
    ? problemOf(query.error)
    : update.isError
      ? problemOf(update.error)
      : remove.isError
        ? problemOf(remove.error)
        : undefined;

  const act = (value: AccountingValue, action: 'toggle' | 'delete') => {
    setConfirming(undefined);
    setDone(undefined);
    if (action === 'delete') remove.mutate(value.id, { onSuccess: () => setDone('deleted') });
    else
      update.mutate(
        { valueId: value.id, patch: { active: !value.active } },
        { onSuccess: () => setDone(value.active ? 'deactivated' : 'reactivated') },
      );
  };

  const columns = useMemo((): DataColumn<AccountingValue>[] => {
    const col = dataColumns<AccountingValue>();
    return col.columns([
      col.accessor('value', {
        header: t('app.accounting.values.field.value'),
        enableHiding: false,
        meta: { rowHeader: true, className: 'app-mono' },
      }),
      col.accessor('description', {
        header: t('app.accounting.values.field.description'),
        cell: ({ row: { original: value } }) =>
          describing === value.id ? (
            <DescriptionForm
              number={number}
              codeId={id}
              value={value}
              onDone={() => {
                setDescribing(undefined);
                setDone('updated');
              }}
              onCancel={() => setDescribing(undefined)}
            />
          ) : (
            value.description || t('app.none')
          ),
      }),
      ...(code?.dependsOn
        ? [
            col.accessor((value) => value.parent?.value ?? '', {
              id: 'parent',
              header: t('app.accounting.values.field.parent', code.dependsOn.name),
              cell: ({ row: { original: value } }) =>
                value.parent
                  ? `${value.parent.value}${value.parent.description ? ` – ${value.parent.description}` : ''}`
                  : t('app.none'),
            }),
          ]
        : []),
      col.accessor((value) => (value.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ]);
  }, [t, number, id, describing, code?.dependsOn]);

  const rowActions: RowActions<AccountingValue> | undefined = canModify
    ? {
        label: (value) => t('app.table.rowActions', value.value),
        actions: (value) => [
          {
            id: 'describe',
            label: t('app.accounting.values.describe'),
            onAction: () => setDescribing(value.id),
          },
          {
            id: value.active ? 'deactivate' : 'reactivate',
            label: t(`app.people.action.${value.active ? 'deactivate' : 'reactivate'}`),
            danger: value.active,
            onAction: () => setConfirming({ value, action: 'toggle' }),
          },
          {
            id: 'delete',
            label: t('app.accounting.action.delete'),
            danger: true,
            onAction: () => setConfirming({ value, action: 'delete' }),
          },
        ],
      }
    : undefined;

  const go = (next: { q: string; status: string }) => {
    const search = new URLSearchParams();
    if (next.q.trim()) search.set('q', next.q.trim());
    if (next.status) search.set('status', next.status);
    setParams(search);
  };

  const confirmTitle = !confirming
    ? ''
    : confirming.action === 'delete'
      ? t('app.accounting.values.deleteLabel', confirming.value.value)
      : t(
          `app.accounting.values.${confirming.value.active ? 'deactivateLabel' : 'reactivateLabel'}`,
          confirming.value.value,
        );
  const searched = q.trim() !== '' || status !== '';

  return (
    <>
      <h1>{code ? t('app.accounting.values.heading', code.name) : t('app.accounting.results')}</h1>
      <CompanyTabs number={number} />
      <AccountingNav number={number} />
      <p>
        <Link to={`/organisation/${encodeURIComponent(number)}/accounting-codes`} id="values-back">
          {t('app.accounting.values.back')}
        </Link>
      </p>
      {code?.dependsOn ? <p>{t('app.accounting.values.dependsOn', code.dependsOn.name)}</p> : null}
      {code?.kind === 'text' ? (
        <p id="values-text-code">{t('app.accounting.values.textCode', code.name)}</p>
      ) : null}
      {result?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <p role="status" id="values-done" className="app-done">
        {done ? t(`app.accounting.values.done.${done}`) : ''}
      </p>
      {canModify && code?.kind === 'list' ? (
        <section aria-labelledby="value-create-heading">
          <h2 id="value-create-heading">{t('app.accounting.values.createHeading')}</h2>
          <NewValueForm number={number} code={code} onDone={() => setDone('created')} />
        </section>
      ) : null}
      {result && code?.kind === 'list' ? (
        <ValuesFile number={number} codeId={id} canUpload={canModify} />
      ) : null}
      {code?.kind === 'list' ? (
        <search>
          <AppForm form={form} onSubmit={async (values) => go(values)} errorId="value-search-error" inline>
            <TextField
              control={form.control}
              name="q"
              id="value-q"
              type="search"
              label={t('app.accounting.values.criteria')}
            />
            <SelectField
              control={form.control}
              name="status"
              id="value-status"
              label={t('app.people.field.status')}
              placeholder={t('app.people.search.any')}
              options={[
                { value: 'active', label: t('app.status.Active') },
                { value: 'inactive', label: t('app.status.Inactive') },
              ]}
            />
            <SubmitButton form={form} id="value-search-submit">
              {t('app.search.submit')}
            </SubmitButton>
          </AppForm>
        </search>
      ) : null}
      <ErrorSummary id="values-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {query.isLoading ? <p>{t('common.loading')}</p> : null}
        {code?.kind === 'list' && !query.isError ? (
          <p id="value-count">{tCount('app.accounting.values.count', code.valueCount)}</p>
        ) : null}
        {result?.searchRequired ? (
          <p id="values-search-required">{t('app.accounting.values.searchRequired')}</p>
        ) : null}
      </div>
      {result && code?.kind === 'list' && !result.searchRequired && !query.isError ? (
        result.rows.length > 0 ? (
          <DataTable
            id="value-results"
            caption={t('app.accounting.values.results', code.name)}
            columns={columns}
            data={result.rows}
            getRowId={(value) => String(value.id)}
            loading={query.isFetching}
            rowActions={rowActions}
            paging={paging.pager('value', result)}
          />
        ) : (
          <EmptyState id="value-results-empty">
            {t(searched ? 'app.accounting.values.none' : 'app.accounting.values.empty')}
          </EmptyState>
        )
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirmTitle}
        body={t(
          confirming?.action === 'delete'
            ? 'app.accounting.values.confirm.delete'
            : 'app.accounting.confirm.toggle',
        )}
        confirmLabel={
          !confirming
            ? ''
            : confirming.action === 'delete'
              ? t('app.accounting.action.delete')
              : t(`app.people.action.${confirming.value.active ? 'deactivate' : 'reactivate'}`)
        }
        onConfirm={() => {
          if (confirming) act(confirming.value, confirming.action);
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
