import { ErrorSummary } from '@cardportal/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { deleteExpenseRecord, type ExpensePart } from '../../api/expenses.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, type RowActions } from '../../frame/data-table.tsx';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { expenseKeys } from './expense-page.tsx';

type Done = 'created' | 'updated' | 'deleted';

/**
 * One list of a company's expense configuration (types, mileage rates, tax rates, approval profiles,
 * thresholds): its table, and for those who may change it the row actions (edit, delete after a
 * confirmation), the form that changes a row, and the form that adds one while the list has room. Its
 * refusal (`{idPrefix}-error`) and what it did (`{idPrefix}-done`) are its own.
 */
export function RecordsSection<T extends { id: number }>({
  number,
  part,
  idPrefix,
  heading,
  caption,
  columns,
  rows,
  canModify,
  remaining,
  nameOf,
  emptyText,
  createHeading,
  fullText,
  editor,
  editable = true,
}: {
  number: string;
  part: ExpensePart | 'approval-thresholds';
  idPrefix: string;
  heading: string;
  caption: string;
  columns: DataColumn<T>[];
  rows: T[];
  canModify: boolean;
  remaining: number;
  nameOf: (row: T) => string;
  emptyText: string;
  createHeading: string;
  fullText: string;
  /** The form: a row to change (with cancel), or a new one. `onDone` after it saved. */
  editor: (props: { editing?: T; onDone: () => void; onCancel?: () => void }) => ReactNode;
  /** Rows are changed in place (thresholds are only added and deleted). */
  editable?: boolean;
}) {
  const { t, tCount, problemText } = useApp();
  const client = useQueryClient();
  const [done, setDone] = useState<Done | undefined>();
  const [editing, setEditing] = useState<T | undefined>();
  const [deleting, setDeleting] = useState<T | undefined>();
  const remove = useMutation({
    mutationFn: (id: number) => deleteExpenseRecord(number, part, id),
    onSuccess: () => client.invalidateQueries({ queryKey: expenseKeys.company(number) }),
  });
  const problem = remove.isError ? problemOf(remove.error) : undefined;
  const rowActions: RowActions<T> | undefined = canModify
    ? {
        label: (row) => t('app.table.rowActions', nameOf(row)),
        actions: (row) => [
          ...(editable
            ? [{ id: 'edit', label: t('app.expenses.action.edit'), onAction: () => setEditing(row) }]
            : []),
          {
            id: 'delete',
            label: t('app.expenses.action.delete'),
            danger: true,
            onAction: () => setDeleting(row),
          },
        ],
      }
    : undefined;
  return (
    <section aria-labelledby={`${idPrefix}-heading`}>
      <h2 id={`${idPrefix}-heading`}>{heading}</h2>
      <ErrorSummary id={`${idPrefix}-error`} message={problem ? problemText(problem) : undefined} />
      <p role="status" id={`${idPrefix}-done`} className="app-done">
        {done ? t(`app.expenses.done.${done}`) : ''}
      </p>
      <DataTable
        id={idPrefix}
        caption={caption}
        columns={columns}
        data={rows}
        getRowId={(row) => String(row.id)}
        rowActions={rowActions}
        empty={emptyText}
      />
      {canModify && editing ? (
        <section aria-labelledby={`${idPrefix}-edit-heading`} key={editing.id}>
          <h3 id={`${idPrefix}-edit-heading`}>{t('app.expenses.editHeading', nameOf(editing))}</h3>
          {editor({
            editing,
            onDone: () => {
              setEditing(undefined);
              setDone('updated');
            },
            onCancel: () => setEditing(undefined),
          })}
        </section>
      ) : null}
      {canModify ? (
        <section aria-labelledby={`${idPrefix}-create-heading`}>
          <h3 id={`${idPrefix}-create-heading`}>{createHeading}</h3>
          {remaining > 0 ? (
            <>
              <p>{tCount('app.expenses.remaining', remaining)}</p>
              {editor({ onDone: () => setDone('created') })}
            </>
          ) : (
            <p>{fullText}</p>
          )}
        </section>
      ) : null}
      <ConfirmDialog
        open={deleting !== undefined}
        title={deleting ? t('app.expenses.deleteLabel', nameOf(deleting)) : ''}
        body={t('app.expenses.confirmDelete')}
        confirmLabel={t('app.expenses.action.delete')}
        onConfirm={() => {
          const row = deleting;
          setDeleting(undefined);
          setDone(undefined);
          if (row) remove.mutate(row.id, { onSuccess: () => setDone('deleted') });
        }}
        onCancel={() => setDeleting(undefined)}
      />
    </section>
  );
}

/** The buttons under an expense form: save (or create), and cancel while changing a row. */
export function FormActions({
  prefix,
  editing,
  createLabel,
  onCancel,
  children,
}: {
  prefix: string;
  editing: boolean;
  createLabel: string;
  onCancel?: (() => void) | undefined;
  /** The submit button (SubmitButton needs the form's own type). */
  children: (label: string) => ReactNode;
}) {
  const { t } = useApp();
  return (
    <div className="app-actions">
      {children(editing ? t('app.people.form.save') : createLabel)}
      {onCancel ? (
        <button type="button" className="app-button" id={`${prefix}-cancel`} onClick={onCancel}>
          {t('common.cancel')}
        </button>
      ) : null}
    </div>
  );
}
