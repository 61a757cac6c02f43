import {
  type CardholderDetail,
  checkCardExpiry,
  checkCardNumber,
  ISSUER_CODE_LIMITS,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { DataTable } from '../../frame/data-table.tsx';
import { EmptyState } from '../../frame/empty-state.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { accountColumns } from './accounts-columns.tsx';
import {
  accountGroupsQuery,
  cardholderFormSchema,
  cardholderQuery,
  useIssueAccount,
  useSetCardholderActive,
  useSetCardholderReasons,
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
            <dd>{holder.orgPoint ? `${holder.orgPoint.number} ${holder.orgPoint.name1}` : t('app.none')}</dd>
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
          <CardholderReasons number={number} id={id} holder={holder} onDone={() => setDone('reasons')} />
          <section aria-labelledby="cardholder-accounts-heading">
            <h2 id="cardholder-accounts-heading">{t('app.accounts.cardholder.accounts')}</h2>
            {holder.canModify && holder.active ? (
              <IssueAccountForm number={number} cardholderId={holder.id} onDone={() => setDone('issued')} />
            ) : null}
            {holder.accounts.length === 0 ? (
              <EmptyState>{t('app.accounts.accounts.none')}</EmptyState>
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

/** The card number as typed: digits in groups, checked as the server checks it (it also checks the BINs). */
const issueSchema = z.object({
  number: z.string().superRefine((value, ctx) => {
    const problem = checkCardNumber(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** The card's expiry, `MM/YY`: optional, checked only when given. */
  expiry: z.string().superRefine((value, ctx) => {
    const problem = value.trim() ? checkCardExpiry(value) : undefined;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  groupId: z.string(),
});

/**
 * Issue a card account to the cardholder (issue 15 item 1): the card number (never shown again in full:
 * the answer and the list show it masked) and, optionally, its expiry date (which cardholder
 * self-registration asks for) and its account group.
 */
function IssueAccountForm({
  number,
  cardholderId,
  onDone,
}: {
  number: string;
  cardholderId: number;
  onDone: () => void;
}) {
  const { t } = useApp();
  const groups = useQuery(accountGroupsQuery(number));
  const issue = useIssueAccount(number);
  const form = useAppForm({
    schema: issueSchema,
    defaultValues: { number: '', expiry: '', groupId: '' },
    codeFields: {
      'account.number.duplicate': 'number',
      'account.number.bin': 'number',
      'cardExpiry.format': 'expiry',
    },
  });
  return (
    <AppForm
      form={form}
      id="account-issue-form"
      errorId="account-issue-error"
      inline
      onSubmit={async (values) => {
        await issue.mutateAsync({
          cardholderId,
          number: values.number,
          expiry: values.expiry.trim() || null,
          groupId: values.groupId ? Number(values.groupId) : null,
        });
        form.reset({ number: '', expiry: '', groupId: '' });
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="number"
        id="account-issue-number"
        label={t('app.accounts.issue.number')}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        control={form.control}
        name="expiry"
        id="account-issue-expiry"
        label={t('app.accounts.issue.expiry')}
        autoComplete="off"
        spellCheck={false}
      />
      <SelectField
        control={form.control}
        name="groupId"
        id="account-issue-group"
        label={t('app.accounts.issue.group')}
        placeholder={t('app.accounts.issue.noGroup')}
        options={(groups.data?.rows ?? [])
          .filter((g) => g.active)
          .map((g) => ({ value: String(g.id), label: g.name }))}
      />
      <SubmitButton form={form} id="account-issue-submit">
        {t('app.accounts.issue.submit')}
      </SubmitButton>
    </AppForm>
  );
}

/**
 * The cardholder's maintenance reason codes (issue 15 item 1): shown to everyone who sees the cardholder;
 * an administrator ticks at most 10 of the issuer's codes and saves them.
 */
function CardholderReasons({
  number,
  id,
  holder,
  onDone,
}: {
  number: string;
  id: string;
  holder: CardholderDetail;
  onDone: () => void;
}) {
  const { t, problemText } = useApp();
  const save = useSetCardholderReasons(number, id);
  const [chosen, setChosen] = useState<string[] | undefined>();
  const current = holder.reasons.map((r) => r.code);
  const picked = chosen ?? current;
  const failed = save.isError ? problemOf(save.error) : undefined;
  const editable = holder.canModify && holder.reasonChoices.length > 0;
  if (!editable && holder.reasons.length === 0) return null;
  return (
    <section aria-labelledby="cardholder-reasons-heading" className="app-section">
      <h2 id="cardholder-reasons-heading">{t('app.accounts.reasons.heading')}</h2>
      {!editable ? (
        <ul id="cardholder-reasons">
          {holder.reasons.map((r) => (
            <li key={r.code}>
              {r.code} — {r.description}
            </li>
          ))}
        </ul>
      ) : (
        <form
          id="cardholder-reasons-form"
          className="app-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(picked, {
              onSuccess: () => {
                setChosen(undefined);
                onDone();
              },
            });
          }}
        >
          <ErrorSummary id="cardholder-reasons-error" message={failed ? problemText(failed) : undefined} />
          <fieldset className="cp-field cp-field--group" aria-describedby="cardholder-reasons-hint">
            <legend className="cp-field__label">{t('app.accounts.reasons.legend')}</legend>
            <p id="cardholder-reasons-hint" className="app-hint">
              {t(
                'app.accounts.reasons.hint',
                String(ISSUER_CODE_LIMITS.perCardholder),
                String(picked.length),
              )}
            </p>
            <div className="app-choices">
              {holder.reasonChoices.map((r) => {
                const checked = picked.includes(r.code);
                return (
                  <div className="app-check" key={r.code}>
                    <input
                      type="checkbox"
                      id={`cardholder-reason-${r.code}`}
                      checked={checked}
                      disabled={!checked && picked.length >= ISSUER_CODE_LIMITS.perCardholder}
                      onChange={() =>
                        setChosen(checked ? picked.filter((c) => c !== r.code) : [...picked, r.code])
                      }
                    />
                    <label htmlFor={`cardholder-reason-${r.code}`}>
                      {r.code} — {r.description}
                    </label>
                  </div>
                );
              })}
            </div>
          </fieldset>
          <button type="submit" className="app-button" id="cardholder-reasons-save" disabled={save.isPending}>
            {t('app.accounts.reasons.save')}
          </button>
        </form>
      )}
    </section>
  );
}
