import { checkDisputeReason, DISPUTE_LIMITS, type DisputeReason } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { addDisputeReason, changeDisputeReason, deleteDisputeReason } from '../../api/transactions.ts';
import type { MenuAction } from '../../frame/aria/menu.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { issuerReasonsQuery, useReasonChange } from './transactions-queries.ts';

const col = dataColumns<DisputeReason>();

/** A reason's fields, checked as the server checks them (code ≤ 2 without spaces, description ≤ 75). */
const reasonSchema = z.object({ code: z.string(), description: z.string() }).superRefine((value, ctx) => {
  for (const [field, problem] of Object.entries(checkDisputeReason(value)))
    ctx.addIssue({ code: 'custom', path: [field], message: problem });
});

/**
 * An issuer's dispute reasons (issue 15 item 6): the list cardholders and administrators choose from when
 * they dispute a transaction, at most 99; issuer administrators add, change and delete them. A dispute
 * keeps the reason as it was when filed.
 */
export function DisputeReasonsScreen() {
  const { t, problemText } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.disputeReasons.heading', number));
  const query = useQuery(issuerReasonsQuery(number));
  const [editing, setEditing] = useState<DisputeReason | undefined>();
  const [deleting, setDeleting] = useState<DisputeReason | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const add = useReasonChange(number, (reason: DisputeReason) => addDisputeReason(number, reason));
  const change = useReasonChange(number, (reason: DisputeReason) =>
    changeDisputeReason(number, reason.code, reason.description),
  );
  const remove = useReasonChange(number, (code: string) => deleteDisputeReason(number, code));
  const list = query.data;
  const failed = query.isError
    ? problemOf(query.error)
    : remove.isError
      ? problemOf(remove.error)
      : undefined;
  const addForm = useAppForm({ schema: reasonSchema, defaultValues: { code: '', description: '' } });
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('code', { header: t('app.disputeReasons.code'), meta: { rowHeader: true } }),
        col.accessor('description', { header: t('app.disputeReasons.description') }),
      ]),
    [t],
  );
  const rowActions: RowActions<DisputeReason> | undefined = list?.canMaintain
    ? {
        label: (row) => t('app.disputeReasons.actions', row.code),
        actions: (row): MenuAction[] => [
          { id: 'change', label: t('app.disputeReasons.change'), onAction: () => setEditing(row) },
          { id: 'delete', label: t('app.disputeReasons.delete'), onAction: () => setDeleting(row) },
        ],
      }
    : undefined;
  const full = list ? list.rows.length >= list.max : false;
  return (
    <>
      <h1>{t('app.disputeReasons.heading', number)}</h1>
      <p>
        <Link to={`/issuers/${encodeURIComponent(number)}`}>{t('app.disputeReasons.back')}</Link>
      </p>
      <p>{t('app.disputeReasons.intro', String(DISPUTE_LIMITS.reasonsPerIssuer))}</p>
      <ErrorSummary id="dispute-reasons-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {done ? (
          <p className="app-done" id="dispute-reasons-done">
            {done}
          </p>
        ) : null}
      </div>
      <DataTable
        id="dispute-reasons"
        caption={t(
          'app.disputeReasons.list',
          String(list?.rows.length ?? 0),
          String(DISPUTE_LIMITS.reasonsPerIssuer),
        )}
        columns={columns}
        data={list?.rows}
        getRowId={(row) => row.code}
        loading={query.isFetching}
        empty={t('app.disputeReasons.none')}
        rowActions={rowActions}
      />
      {editing ? (
        <ChangeReason
          reason={editing}
          onSave={async (description) => {
            await change.mutateAsync({ code: editing.code, description });
            setEditing(undefined);
            setDone(t('app.disputeReasons.changed', editing.code));
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : null}
      {list?.canMaintain ? (
        <section aria-labelledby="dispute-reason-add-heading" className="app-section">
          <h2 id="dispute-reason-add-heading">{t('app.disputeReasons.add')}</h2>
          {full ? <p>{t('app.disputeReasons.full', String(DISPUTE_LIMITS.reasonsPerIssuer))}</p> : null}
          <AppForm
            form={addForm}
            id="dispute-reason-add"
            errorId="dispute-reason-add-error"
            onSubmit={async (values) => {
              await add.mutateAsync({
                code: values.code.trim().toUpperCase(),
                description: values.description.trim(),
              });
              setDone(t('app.disputeReasons.added', values.code.trim().toUpperCase()));
              addForm.reset({ code: '', description: '' });
            }}
          >
            <TextField
              control={addForm.control}
              name="code"
              id="dispute-reason-code"
              label={t('app.disputeReasons.code')}
              hint={t('app.disputeReasons.codeHint')}
              maxLength={DISPUTE_LIMITS.codeMaxLength}
              autoComplete="off"
            />
            <TextField
              control={addForm.control}
              name="description"
              id="dispute-reason-description"
              label={t('app.disputeReasons.description')}
              maxLength={DISPUTE_LIMITS.descriptionMaxLength}
              autoComplete="off"
            />
            <SubmitButton form={addForm} id="dispute-reason-add-submit" disabled={full}>
              {t('app.disputeReasons.addSubmit')}
            </SubmitButton>
          </AppForm>
        </section>
      ) : null}
      <ConfirmDialog
        open={deleting !== undefined}
        idPrefix="dispute-reason-delete"
        title={t('app.disputeReasons.deleteTitle', deleting?.code ?? '')}
        body={t('app.disputeReasons.deleteBody')}
        confirmLabel={t('app.disputeReasons.delete')}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => {
          const code = deleting?.code;
          setDeleting(undefined);
          if (code) remove.mutate(code, { onSuccess: () => setDone(t('app.disputeReasons.deleted', code)) });
        }}
      />
    </>
  );
}

function ChangeReason({
  reason,
  onSave,
  onCancel,
}: {
  reason: DisputeReason;
  onSave: (description: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useApp();
  const form = useAppForm({ schema: reasonSchema, defaultValues: reason });
  return (
    <section aria-labelledby="dispute-reason-change-heading" className="app-section">
      <h2 id="dispute-reason-change-heading">{t('app.disputeReasons.changeHeading', reason.code)}</h2>
      <AppForm
        form={form}
        id="dispute-reason-change"
        errorId="dispute-reason-change-error"
        onSubmit={(values) => onSave(values.description.trim())}
      >
        <TextField
          control={form.control}
          name="description"
          id="dispute-reason-change-description"
          label={t('app.disputeReasons.description')}
          maxLength={DISPUTE_LIMITS.descriptionMaxLength}
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the form opens for this field, at the user's request
          autoFocus
        />
        <p className="app-actions">
          <SubmitButton form={form} id="dispute-reason-change-submit">
            {t('app.disputeReasons.save')}
          </SubmitButton>
          <button type="button" className="app-button" id="dispute-reason-change-cancel" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </p>
      </AppForm>
    </section>
  );
}
