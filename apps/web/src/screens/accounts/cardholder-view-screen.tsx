import type { CardholderDetail } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { DataTable } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { accountColumns } from './accounts-columns.tsx';
import {
  cardholderFormSchema,
  cardholderQuery,
  useSetCardholderActive,
  useUpdateCardholder,
} from './accounts-queries.ts';
import { fullName } from './shared.tsx';

/** One cardholder: names, org point, status, its accounts (masked); edit and (de)activate when allowed. */
export function CardholderViewScreen() {
  const { t, problemText } = useApp();
  const { number = '', id = '' } = useParams();
  const query = useQuery(cardholderQuery(number, id));
  const holder = query.data;
  const activate = useSetCardholderActive(number, id);
  const [done, setDone] = useState<KeySuffix<'app.accounts.done.'> | undefined>();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const columns = useMemo(() => accountColumns({ t, number }), [t, number]);
  const problem = query.isError
    ? problemOf(query.error)
    : activate.isError
      ? problemOf(activate.error)
      : undefined;
  usePageTitle(holder ? fullName(holder) : t('app.accounts.cardholder.heading'));

  const toggle = () => {
    if (!holder) return;
    setConfirming(false);
    setDone(undefined);
    activate.mutate(!holder.active, {
      onSuccess: (next) => setDone(next.active ? 'reactivated' : 'deactivated'),
    });
  };

  const base = `/organisation/${encodeURIComponent(number)}`;

  return (
    <>
      <h1>{holder ? fullName(holder) : t('app.accounts.cardholder.heading')}</h1>
      <CompanyTabs number={number} />
      <p>
        <Link to={`${base}/cardholders`}>{t('app.accounts.cardholder.back')}</Link>
      </p>
      {holder?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id="cardholder-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="cardholder-done" className="app-done">
        {done ? t(`app.accounts.done.${done}`) : ''}
      </p>
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {holder ? (
        <>
          <dl className="app-facts" id="cardholder-facts">
            <dt>{t('app.accounts.field.name1')}</dt>
            <dd>{holder.name1}</dd>
            <dt>{t('app.accounts.field.name2')}</dt>
            <dd>{holder.name2}</dd>
            <dt>{t('app.accounts.field.orgPoint')}</dt>
            <dd>{holder.orgPoint ? `${holder.orgPoint.number} ${holder.orgPoint.name1}` : ''}</dd>
            <dt>{t('app.people.field.status')}</dt>
            <dd id="cardholder-status">
              <ActivePill active={holder.active} />
            </dd>
          </dl>
          {holder.canModify && !editing ? (
            <div className="app-actions">
              <button
                type="button"
                className="app-button"
                id="cardholder-edit"
                onClick={() => {
                  setDone(undefined);
                  setEditing(true);
                }}
              >
                {t('app.people.action.edit')}
              </button>
              <button
                type="button"
                id={holder.active ? 'cardholder-deactivate' : 'cardholder-reactivate'}
                className={`app-button${holder.active ? ' app-button--danger' : ''}`}
                disabled={activate.isPending}
                onClick={() => setConfirming(true)}
              >
                {t(`app.people.action.${holder.active ? 'deactivate' : 'reactivate'}`)}
              </button>
            </div>
          ) : null}
          {editing ? (
            <CardholderForm
              holder={holder}
              number={number}
              id={id}
              onDone={() => {
                setEditing(false);
                setDone('saved');
              }}
              onCancel={() => setEditing(false)}
            />
          ) : null}
          <section aria-labelledby="cardholder-accounts-heading">
            <h2 id="cardholder-accounts-heading">{t('app.accounts.cardholder.accounts')}</h2>
            {holder.accounts.length === 0 ? (
              <p>{t('app.accounts.accounts.none')}</p>
            ) : (
              <DataTable
                id="cardholder-accounts"
                caption={t('app.accounts.cardholder.accounts')}
                columns={columns}
                data={holder.accounts}
                getRowId={(a) => String(a.id)}
              />
            )}
          </section>
        </>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={
          holder
            ? t(
                `app.accounts.cardholder.confirm.${holder.active ? 'deactivate' : 'reactivate'}`,
                fullName(holder),
              )
            : ''
        }
        body={t('app.accounts.cardholder.confirm.body')}
        confirmLabel={holder ? t(`app.people.action.${holder.active ? 'deactivate' : 'reactivate'}`) : ''}
        onConfirm={toggle}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}

/** The edit form: names by the domain's rules; the server checks the org point (its answer lands on it). */
function CardholderForm({
  holder,
  number,
  id,
  onDone,
  onCancel,
}: {
  holder: CardholderDetail;
  number: string;
  id: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useApp();
  const save = useUpdateCardholder(number, id);
  const form = useAppForm({
    schema: cardholderFormSchema,
    defaultValues: { name1: holder.name1, name2: holder.name2, orgPoint: holder.orgPoint?.number ?? '' },
  });
  return (
    <section aria-labelledby="cardholder-edit-heading">
      <h2 id="cardholder-edit-heading">{t('app.accounts.cardholder.editHeading')}</h2>
      <AppForm
        form={form}
        id="cardholder-form"
        errorId="cardholder-form-error"
        onSubmit={async (values) => {
          await save.mutateAsync({ ...values, orgPoint: values.orgPoint.trim() });
          onDone();
        }}
      >
        <TextField
          control={form.control}
          name="name1"
          id="cardholder-name1"
          label={t('app.accounts.field.name1')}
        />
        <TextField
          control={form.control}
          name="name2"
          id="cardholder-name2"
          label={t('app.accounts.field.name2')}
        />
        <TextField
          control={form.control}
          name="orgPoint"
          id="cardholder-orgPoint"
          label={t('app.accounts.field.orgPointNumber')}
        />
        <div className="app-actions">
          <SubmitButton form={form} id="cardholder-save">
            {t('app.people.form.save')}
          </SubmitButton>
          <button type="button" className="app-button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </div>
      </AppForm>
    </section>
  );
}
