import { type AccountGroupSummary, accountGroupSchema, toFieldErrors } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  accountGroupFormSchema,
  accountGroupsQuery,
  useCreateAccountGroup,
  useRenameAccountGroup,
  useSetAccountGroupActive,
} from './accounts-queries.ts';

/** The name's problem by the shared rule (`accountGroup.name.*`), or undefined. */
export function checkGroupName(name: string): string | undefined {
  const parsed = accountGroupSchema.safeParse({ name });
  return parsed.success ? undefined : toFieldErrors(parsed.error).name;
}

/** One name form: create (no group) or rename (a group). Server field errors land on the field. */
function GroupNameForm({
  idPrefix,
  initial,
  label,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  initial: string;
  label: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useApp();
  const form = useAppForm({ schema: accountGroupFormSchema, defaultValues: { name: initial } });
  return (
    <AppForm
      form={form}
      errorId={`${idPrefix}-error`}
      inline
      onSubmit={async ({ name }) => {
        await onSubmit(name.trim());
        form.reset({ name: initial });
      }}
    >
      <TextField control={form.control} name="name" id={`${idPrefix}-name`} label={label} />
      <SubmitButton form={form} id={`${idPrefix}-submit`}>
        {submitLabel}
      </SubmitButton>
      {onCancel ? (
        <button type="button" className="app-button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      ) : null}
    </AppForm>
  );
}

/** A company's account groups: list with open accounts, create, rename, deactivate / reactivate. */
export function AccountGroupsScreen() {
  const { t, problemText, languageTag } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounts.groups.heading', number));
  const query = useQuery(accountGroupsQuery(number));
  const list = query.data;
  const create = useCreateAccountGroup(number);
  const rename = useRenameAccountGroup(number);
  const activate = useSetAccountGroupActive(number);
  const [done, setDone] = useState<KeySuffix<'app.accounts.done.'> | undefined>();
  const [renaming, setRenaming] = useState<number | undefined>();
  const [confirming, setConfirming] = useState<AccountGroupSummary | undefined>();
  const problem = query.isError
    ? problemOf(query.error)
    : activate.isError
      ? problemOf(activate.error)
      : undefined;
  const canModify = list?.canModify === true;

  const toggle = (group: AccountGroupSummary) => {
    setConfirming(undefined);
    setDone(undefined);
    activate.mutate(
      { id: group.id, active: !group.active },
      { onSuccess: () => setDone(group.active ? 'groupDeactivated' : 'groupReactivated') },
    );
  };

  const columns = useMemo((): DataColumn<AccountGroupSummary>[] => {
    const count = new Intl.NumberFormat(languageTag);
    const col = dataColumns<AccountGroupSummary>();
    const shown = [
      col.accessor('name', {
        header: t('app.accounts.field.groupName'),
        enableHiding: false,
        meta: { rowHeader: true },
        cell: ({ row: { original: group } }) =>
          renaming === group.id ? (
            <GroupNameForm
              idPrefix={`group-rename-${group.id}`}
              initial={group.name}
              label={t('app.accounts.groups.renameLabel', group.name)}
              submitLabel={t('app.people.form.save')}
              onSubmit={async (name) => {
                await rename.mutateAsync({ id: group.id, name });
                setRenaming(undefined);
                setDone('groupRenamed');
              }}
              onCancel={() => setRenaming(undefined)}
            />
          ) : (
            <Link to={`/organisation/${encodeURIComponent(number)}/accounts?group=${group.id}`}>
              {group.name}
            </Link>
          ),
      }),
      col.accessor('activeAccounts', {
        header: t('app.accounts.field.openAccounts'),
        meta: { className: 'app-num' },
        sortDescFirst: true,
        cell: (cell) => count.format(cell.getValue()),
      }),
      col.accessor((group) => (group.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ];
    return col.columns(shown);
  }, [t, languageTag, number, renaming, rename]);

  // The row's actions in its menu (as every grid): rename, deactivate or reactivate (confirmed).
  const rowActions: RowActions<AccountGroupSummary> | undefined = canModify
    ? {
        label: (group) => t('app.table.rowActions', group.name),
        actions: (group) => [
          { id: 'rename', label: t('app.accounts.groups.rename'), onAction: () => setRenaming(group.id) },
          {
            id: group.active ? 'deactivate' : 'reactivate',
            label: t(`app.people.action.${group.active ? 'deactivate' : 'reactivate'}`),
            danger: group.active,
            onAction: () => setConfirming(group),
          },
        ],
      }
    : undefined;

  return (
    <>
      <h1>{t('app.accounts.groups.heading', number)}</h1>
      <CompanyTabs number={number} />
      {list?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id="groups-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="groups-done" className="app-done">
        {done ? t(`app.accounts.done.${done}`) : ''}
      </p>
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {list?.canModify ? (
        <section aria-labelledby="group-create-heading">
          <h2 id="group-create-heading">{t('app.accounts.groups.create')}</h2>
          <GroupNameForm
            idPrefix="group-create"
            initial=""
            label={t('app.accounts.field.groupName')}
            submitLabel={t('app.accounts.groups.createSubmit')}
            onSubmit={async (name) => {
              setDone(undefined);
              await create.mutateAsync(name);
              setDone('groupCreated');
            }}
          />
        </section>
      ) : null}
      {list ? (
        <DataTable
          id="group-results"
          caption={t('app.accounts.groups.results')}
          columns={columns}
          data={list.rows}
          getRowId={(group) => String(group.id)}
          loading={query.isFetching && !query.isPending}
          rowActions={rowActions}
          empty={t('app.accounts.groups.none')}
        />
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={
          confirming
            ? t(
                `app.accounts.groups.${confirming.active ? 'deactivateLabel' : 'reactivateLabel'}`,
                confirming.name,
              )
            : ''
        }
        body={t('app.accounts.groups.confirmBody')}
        confirmLabel={
          confirming ? t(`app.people.action.${confirming.active ? 'deactivate' : 'reactivate'}`) : ''
        }
        onConfirm={() => {
          if (confirming) toggle(confirming);
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
