import {
  checkIssuerCode,
  ISSUER_CODE_LIMITS,
  ISSUER_CODE_LISTS,
  type IssuerCode,
  type IssuerCodeListName,
  SYSTEM_STATUSES,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { addIssuerCode, changeIssuerCode, deleteIssuerCode } from '../../api/issuers.ts';
import type { MenuAction } from '../../frame/aria/menu.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type App, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { issuerCodesQuery, useIssuerCodeChange } from './issuers-queries.ts';

const col = dataColumns<IssuerCode>();
const SYSTEM_STATUS_CODES = Object.keys(SYSTEM_STATUSES) as (keyof typeof SYSTEM_STATUSES)[];

/** A system status letter as the list shows it ("S – Suspended"). */
const statusLabelOf = (t: App['t'], code: string | null) =>
  code && code in SYSTEM_STATUSES
    ? t(`app.issuerCodes.systemStatus.${SYSTEM_STATUSES[code as keyof typeof SYSTEM_STATUSES]}`)
    : '';

/** A code's fields, checked as the server checks them (code ≤ 2 without spaces, description ≤ 75, …). */
const codeSchema = (list: IssuerCodeListName) =>
  z
    .object({ code: z.string(), description: z.string(), systemStatus: z.string() })
    .superRefine((value, ctx) => {
      for (const [field, problem] of Object.entries(checkIssuerCode(value, list)))
        ctx.addIssue({ code: 'custom', path: [field], message: problem });
    });

/**
 * One of an issuer's code lists (issue 15 items 1 and 6): dispute reasons (offered on the dispute form),
 * account status codes (each setting a system status: offered when an account's status changes) or
 * maintenance reason codes (given to cardholders) — at most 99 each; issuer administrators add, change
 * and delete them. What was recorded with a code (a dispute, an account) keeps it.
 */
export function IssuerCodesScreen({ list }: { list: IssuerCodeListName }) {
  const { t, problemText } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t(`app.issuerCodes.${list}.heading`, number));
  const query = useQuery(issuerCodesQuery(number, list));
  const [editing, setEditing] = useState<IssuerCode | undefined>();
  const [deleting, setDeleting] = useState<IssuerCode | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const statuses = ISSUER_CODE_LISTS[list].kind === 'accountStatus';
  const add = useIssuerCodeChange(number, list, (code: IssuerCode) => addIssuerCode(number, list, code));
  const change = useIssuerCodeChange(number, list, (code: IssuerCode) =>
    changeIssuerCode(number, list, code.code, {
      description: code.description,
      systemStatus: code.systemStatus,
    }),
  );
  const remove = useIssuerCodeChange(number, list, (code: string) => deleteIssuerCode(number, list, code));
  const data = query.data;
  const failed = query.isError
    ? problemOf(query.error)
    : remove.isError
      ? problemOf(remove.error)
      : undefined;
  const schema = useMemo(() => codeSchema(list), [list]);
  const addForm = useAppForm({ schema, defaultValues: { code: '', description: '', systemStatus: '' } });
  const statusLabel = (code: string | null) => statusLabelOf(t, code);
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('code', { header: t('app.issuerCodes.code'), meta: { rowHeader: true } }),
        col.accessor('description', { header: t('app.issuerCodes.description') }),
        ...(statuses
          ? [
              col.accessor('systemStatus', {
                header: t('app.issuerCodes.systemStatus'),
                cell: (cell) => statusLabelOf(t, cell.getValue()),
              }),
            ]
          : []),
      ]),
    [t, statuses],
  );
  const rowActions: RowActions<IssuerCode> | undefined = data?.canMaintain
    ? {
        label: (row) => t('app.issuerCodes.actions', row.code),
        actions: (row): MenuAction[] => [
          { id: 'change', label: t('app.issuerCodes.change'), onAction: () => setEditing(row) },
          { id: 'delete', label: t('app.issuerCodes.delete'), onAction: () => setDeleting(row) },
        ],
      }
    : undefined;
  const full = data ? data.rows.length >= data.max : false;
  const statusOptions = SYSTEM_STATUS_CODES.map((s) => ({ value: s, label: statusLabel(s) }));
  return (
    <>
      <h1>{t(`app.issuerCodes.${list}.heading`, number)}</h1>
      <p>
        <Link to={`/issuers/${encodeURIComponent(number)}`}>{t('app.issuerCodes.back')}</Link>
      </p>
      <p>{t(`app.issuerCodes.${list}.intro`, String(ISSUER_CODE_LIMITS.perList))}</p>
      <ErrorSummary id="issuer-codes-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {done ? (
          <p className="app-done" id="issuer-codes-done">
            {done}
          </p>
        ) : null}
      </div>
      <DataTable
        id="issuer-codes"
        caption={t(
          'app.issuerCodes.list',
          String(data?.rows.length ?? 0),
          String(ISSUER_CODE_LIMITS.perList),
        )}
        columns={columns}
        data={data?.rows}
        getRowId={(row) => row.code}
        loading={query.isFetching}
        empty={t('app.issuerCodes.none')}
        rowActions={rowActions}
      />
      {editing ? (
        <ChangeCode
          list={list}
          code={editing}
          statusOptions={statuses ? statusOptions : undefined}
          onSave={async (value) => {
            await change.mutateAsync(value);
            setEditing(undefined);
            setDone(t('app.issuerCodes.changed', editing.code));
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : null}
      {data?.canMaintain ? (
        <section aria-labelledby="issuer-code-add-heading" className="app-section">
          <h2 id="issuer-code-add-heading">{t('app.issuerCodes.add')}</h2>
          {full ? <p>{t('app.issuerCodes.full', String(ISSUER_CODE_LIMITS.perList))}</p> : null}
          <AppForm
            form={addForm}
            id="issuer-code-add"
            errorId="issuer-code-add-error"
            onSubmit={async (values) => {
              const code = values.code.trim().toUpperCase();
              await add.mutateAsync({
                code,
                description: values.description.trim(),
                systemStatus: statuses ? (values.systemStatus as keyof typeof SYSTEM_STATUSES) : null,
              });
              setDone(t('app.issuerCodes.added', code));
              addForm.reset({ code: '', description: '', systemStatus: '' });
            }}
          >
            <TextField
              control={addForm.control}
              name="code"
              id="issuer-code-code"
              label={t('app.issuerCodes.code')}
              hint={t('app.issuerCodes.codeHint')}
              maxLength={ISSUER_CODE_LIMITS.codeMaxLength}
              autoComplete="off"
            />
            <TextField
              control={addForm.control}
              name="description"
              id="issuer-code-description"
              label={t('app.issuerCodes.description')}
              maxLength={ISSUER_CODE_LIMITS.descriptionMaxLength}
              autoComplete="off"
            />
            {statuses ? (
              <SelectField
                control={addForm.control}
                name="systemStatus"
                id="issuer-code-systemStatus"
                label={t('app.issuerCodes.systemStatus')}
                placeholder={t('app.issuerCodes.chooseStatus')}
                options={statusOptions}
              />
            ) : null}
            <SubmitButton form={addForm} id="issuer-code-add-submit" disabled={full}>
              {t('app.issuerCodes.addSubmit')}
            </SubmitButton>
          </AppForm>
        </section>
      ) : null}
      <ConfirmDialog
        open={deleting !== undefined}
        idPrefix="issuer-code-delete"
        title={t('app.issuerCodes.deleteTitle', deleting?.code ?? '')}
        body={t('app.issuerCodes.deleteBody')}
        confirmLabel={t('app.issuerCodes.delete')}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => {
          const code = deleting?.code;
          setDeleting(undefined);
          if (code) remove.mutate(code, { onSuccess: () => setDone(t('app.issuerCodes.deleted', code)) });
        }}
      />
    </>
  );
}

function ChangeCode({
  list,
  code,
  statusOptions,
  onSave,
  onCancel,
}: {
  list: IssuerCodeListName;
  code: IssuerCode;
  statusOptions: { value: string; label: string }[] | undefined;
  onSave: (value: IssuerCode) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useApp();
  const schema = useMemo(() => codeSchema(list), [list]);
  const form = useAppForm({
    schema,
    defaultValues: { code: code.code, description: code.description, systemStatus: code.systemStatus ?? '' },
  });
  return (
    <section aria-labelledby="issuer-code-change-heading" className="app-section">
      <h2 id="issuer-code-change-heading">{t('app.issuerCodes.changeHeading', code.code)}</h2>
      <AppForm
        form={form}
        id="issuer-code-change"
        errorId="issuer-code-change-error"
        onSubmit={(values) =>
          onSave({
            code: code.code,
            description: values.description.trim(),
            systemStatus: statusOptions ? (values.systemStatus as keyof typeof SYSTEM_STATUSES) : null,
          })
        }
      >
        <TextField
          control={form.control}
          name="description"
          id="issuer-code-change-description"
          label={t('app.issuerCodes.description')}
          maxLength={ISSUER_CODE_LIMITS.descriptionMaxLength}
          autoComplete="off"
          autoFocus
        />
        {statusOptions ? (
          <SelectField
            control={form.control}
            name="systemStatus"
            id="issuer-code-change-systemStatus"
            label={t('app.issuerCodes.systemStatus')}
            options={statusOptions}
          />
        ) : null}
        <p className="app-actions">
          <SubmitButton form={form} id="issuer-code-change-submit">
            {t('app.issuerCodes.save')}
          </SubmitButton>
          <button type="button" className="app-button" id="issuer-code-change-cancel" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </p>
      </AppForm>
    </section>
  );
}
