import { ErrorSummary } from '@cardportal/ui';
import { useMemo, useState } from 'react';
import { Dialog } from '../../frame/aria/dialog.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { type App, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { type GroupChange, groupNameSchema } from './issuers-queries.ts';

export interface GroupRow {
  id: number;
  name: string;
  active: boolean;
  /** Active members (issuers of an issuer group, companies of a company group). */
  activeCount: number;
}

type Kind = 'issuerGroup' | 'companyGroup';
const labelsOf = (kind: Kind) => (kind === 'issuerGroup' ? 'app.issuerGroups' : 'app.companyGroups');

const col = dataColumns<GroupRow>();

/** The group grid: name (names the row), active members, status. A complete list: it sorts itself. */
function groupColumns({ t, kind }: Pick<App, 't'> & { kind: Kind }): DataColumn<GroupRow>[] {
  return col.columns([
    col.accessor('name', { header: t(`${labelsOf(kind)}.name`), meta: { rowHeader: true } }),
    col.accessor('activeCount', { header: t(`${labelsOf(kind)}.count`), meta: { className: 'app-num' } }),
    col.accessor((row) => (row.active ? 1 : 0), {
      id: 'status',
      header: t('app.people.field.status'),
      cell: ({ row }) => <ActivePill active={row.original.active} />,
    }),
  ]);
}

/**
 * A list of groups (issuer groups or one issuer's company groups) with add, and — in each row's
 * action menu — rename (a dialog), deactivate and reactivate (confirmed) for those who may maintain
 * them. Names follow the domain schema the server runs too; a duplicate name lands on its field, any
 * other refusal (active members) in the error summary.
 */
export function GroupTable({
  kind,
  rows,
  canMaintain,
  onChange,
}: {
  kind: Kind;
  rows: GroupRow[];
  canMaintain: boolean;
  onChange: (change: GroupChange) => Promise<unknown>;
}) {
  const { t, problemText } = useApp();
  const labels = labelsOf(kind);
  const schema = useMemo(() => groupNameSchema(kind), [kind]);
  const add = useAppForm({ schema, defaultValues: { name: '' } });
  const [renaming, setRenaming] = useState<GroupRow | undefined>();
  const [confirming, setConfirming] = useState<GroupRow | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const columns = useMemo(() => groupColumns({ t, kind }), [t, kind]);

  const started = () => {
    setProblem(undefined);
    setDone(false);
  };

  const action = confirming?.active ? 'deactivate' : 'reactivate';
  const rowActions: RowActions<GroupRow> | undefined = canMaintain
    ? {
        label: (row) => t('app.table.rowActions', row.name),
        actions: (row) => [
          { id: 'rename', label: t('app.groups.rename'), onAction: () => setRenaming(row) },
          {
            id: row.active ? 'deactivate' : 'reactivate',
            label: t(`app.people.action.${row.active ? 'deactivate' : 'reactivate'}`),
            danger: row.active,
            onAction: () => setConfirming(row),
          },
        ],
      }
    : undefined;

  return (
    <>
      <ErrorSummary id={`${kind}-error`} message={problem ? problemText(problem) : undefined} />
      <p role="status" className="app-done" id={`${kind}-done`}>
        {done ? t('app.groups.done') : ''}
      </p>
      {canMaintain ? (
        <AppForm
          form={add}
          id={`${kind}-add`}
          errorId={`${kind}-add-error`}
          inline
          onSubmit={async (values) => {
            started();
            await onChange({ kind: 'create', name: values.name.trim() });
            add.reset({ name: '' });
            setDone(true);
          }}
        >
          <TextField
            control={add.control}
            name="name"
            id={`${kind}-name`}
            label={t(`${labels}.name`)}
            autoComplete="off"
          />
          <SubmitButton form={add} id={`${kind}-create`}>
            {t('app.groups.add')}
          </SubmitButton>
        </AppForm>
      ) : null}
      <DataTable
        id={`${kind}-table`}
        caption={t(`${labels}.heading`)}
        columns={columns}
        data={rows}
        getRowId={(row) => String(row.id)}
        empty={t('app.groups.none')}
        rowActions={rowActions}
      />
      {renaming ? (
        <RenameDialog
          kind={kind}
          row={renaming}
          onClose={() => setRenaming(undefined)}
          onRename={async (name) => {
            started();
            await onChange({ kind: 'rename', id: renaming.id, name });
            setRenaming(undefined);
            setDone(true);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirming ? t(`app.groups.confirm.${action}`, confirming.name) : ''}
        body={confirming ? t(`app.groups.confirm.${action}Body`) : ''}
        confirmLabel={t(`app.people.action.${action}`)}
        onConfirm={() => {
          const row = confirming;
          setConfirming(undefined);
          if (!row) return;
          started();
          onChange({ kind: 'setActive', id: row.id, active: !row.active }).then(
            () => setDone(true),
            (error: unknown) => setProblem(problemOf(error)),
          );
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}

/** Renames a group: a modal form with the new name (a duplicate lands on the field). */
function RenameDialog({
  kind,
  row,
  onClose,
  onRename,
}: {
  kind: Kind;
  row: GroupRow;
  onClose: () => void;
  onRename: (name: string) => Promise<void>;
}) {
  const { t } = useApp();
  const form = useAppForm({ schema: groupNameSchema(kind), defaultValues: { name: row.name } });
  return (
    <Dialog
      open
      onClose={onClose}
      title={`${t('app.groups.rename')}: ${row.name}`}
      id={`${kind}-rename-dialog`}
    >
      <AppForm
        form={form}
        id={`${kind}-rename-form`}
        errorId={`${kind}-rename-error`}
        onSubmit={async (values) => onRename(values.name.trim())}
      >
        <TextField
          control={form.control}
          name="name"
          id={`${kind}-rename-${row.id}`}
          label={t('app.groups.renameLabel', row.name)}
          autoComplete="off"
          autoFocus
        />
        <div className="app-actions">
          <button type="button" className="app-button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <SubmitButton form={form} id={`${kind}-rename-save`}>
            {t('app.people.form.save')}
          </SubmitButton>
        </div>
      </AppForm>
    </Dialog>
  );
}
