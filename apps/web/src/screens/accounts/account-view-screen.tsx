import { ACCOUNT_STATUSES, type AccountStatus, checkAccountStatusChange, may } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  accountGroupsQuery,
  accountQuery,
  useMoveAccount,
  useSetAccountStatus,
  useUnlockRegistration,
} from './accounts-queries.ts';
import { AccountStatusPill, fullName } from './shared.tsx';

/**
 * The status form: a new status (`status:Suspended`) or one of the issuer's account status codes
 * (`code:FR`, which sets the status it maps to); '' until one is chosen.
 */
const statusFormSchema = z.object({ status: z.string() });
type StatusChange = { status: AccountStatus; statusCode?: string };
/** The move form: the target group's id ('' until one is chosen). */
const moveFormSchema = z.object({ groupId: z.string() });

/**
 * One card account, masked (at most the BIN and the last four): cardholder, group, status. An
 * administrator changes its status (through the confirmation dialog) and moves it to another group.
 */
export function AccountViewScreen() {
  const { t, problemText, user } = useApp();
  const { number = '', id = '' } = useParams();
  const query = useQuery(accountQuery(number, id));
  const account = query.data;
  const groupsQuery = useQuery({ ...accountGroupsQuery(number), enabled: account?.canModify === true });
  const groups = (groupsQuery.data?.rows ?? []).filter((g) => g.active);
  const changeStatus = useSetAccountStatus(number, id);
  const move = useMoveAccount(number, id);
  const unlock = useUnlockRegistration(number, id);
  const [done, setDone] = useState<KeySuffix<'app.accounts.done.'> | 'unlocked' | undefined>();
  const [confirming, setConfirming] = useState<StatusChange | undefined>();
  const [confirmingUnlock, setConfirmingUnlock] = useState(false);
  const statusForm = useAppForm({ schema: statusFormSchema, defaultValues: { status: '' } });
  const moveForm = useAppForm({ schema: moveFormSchema, defaultValues: { groupId: '' } });
  const nextStatus = statusForm.watch('status');
  const nextGroup = moveForm.watch('groupId');
  const busy = changeStatus.isPending || move.isPending || unlock.isPending;
  const problem = query.isError
    ? problemOf(query.error)
    : changeStatus.isError
      ? problemOf(changeStatus.error)
      : unlock.isError
        ? problemOf(unlock.error)
        : undefined; // a refused move shows in its form
  usePageTitle(t('app.accounts.account.heading', account?.maskedNumber ?? ''));

  const changeable = account
    ? ACCOUNT_STATUSES.filter((s) => s !== account.status && !checkAccountStatusChange(account.status, s))
    : [];
  const codes = account
    ? account.statusCodes.filter(
        (c) => c.code !== account.statusCode?.code && !checkAccountStatusChange(account.status, c.status),
      )
    : [];
  const choiceOf = (value: string): StatusChange | undefined => {
    if (value.startsWith('status:')) {
      const status = ACCOUNT_STATUSES.find((s) => `status:${s}` === value);
      return status ? { status } : undefined;
    }
    const code = codes.find((c) => `code:${c.code}` === value);
    return code ? { status: code.status, statusCode: code.code } : undefined;
  };

  const afterChange = (message: KeySuffix<'app.accounts.done.'>) => {
    setDone(message);
    statusForm.reset({ status: '' });
    moveForm.reset({ groupId: '' });
  };

  const confirmStatus = () => {
    const change = confirming;
    setConfirming(undefined);
    if (!change) return;
    setDone(undefined);
    move.reset();
    unlock.reset();
    changeStatus.mutate(change.statusCode ? { statusCode: change.statusCode } : { status: change.status }, {
      onSuccess: () => afterChange('status'),
    });
  };

  const confirmUnlock = () => {
    setConfirmingUnlock(false);
    setDone(undefined);
    move.reset();
    changeStatus.reset();
    unlock.mutate(undefined, { onSuccess: () => setDone('unlocked') });
  };

  const base = `/organisation/${encodeURIComponent(number)}`;

  return (
    <>
      <h1>{t('app.accounts.account.heading', account?.maskedNumber ?? '')}</h1>
      <CompanyTabs number={number} />
      <p>
        <Link to={`${base}/accounts`}>{t('app.accounts.account.back')}</Link>
      </p>
      {account?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id="account-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="account-done" className="app-done">
        {done === 'unlocked'
          ? t('app.accounts.account.unlocked')
          : done
            ? t(`app.accounts.done.${done}`)
            : ''}
      </p>
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {account ? (
        <>
          <dl className="app-facts" id="account-facts">
            <dt>{t('app.accounts.field.number')}</dt>
            <dd id="account-number">{account.maskedNumber}</dd>
            <dt>{t('app.accounts.field.cardholder')}</dt>
            <dd>
              {account.cardholder ? (
                <Link to={`${base}/cardholders/${account.cardholder.id}`}>
                  {fullName(account.cardholder)}
                </Link>
              ) : account.alias ? (
                // A real card: no cardholder; its alias names it, linking to the real cards.
                <Link to={`${base}/real-cards?q=${encodeURIComponent(account.alias.slice(0, 100))}`}>
                  {t('app.accounts.realCardAlias', account.alias)}
                </Link>
              ) : (
                t('app.none')
              )}
            </dd>
            <dt>{t('app.accounts.field.group')}</dt>
            <dd id="account-group-name">{account.group?.name ?? t('app.none')}</dd>
            <dt>{t('app.people.field.status')}</dt>
            <dd id="account-status">
              <AccountStatusPill status={account.status} />
              {account.statusCode ? ` ${account.statusCode.code} — ${account.statusCode.description}` : ''}
            </dd>
            <dt>{t('app.accounts.account.expiry')}</dt>
            <dd id="account-expiry">{account.expiry ?? t('app.accounts.account.expiryUnknown')}</dd>
            <dt>{t('app.accounts.account.registration')}</dt>
            <dd id="account-registration">
              {account.registrationLocked
                ? t('app.accounts.account.registrationLocked')
                : t('app.accounts.account.registrationOpen')}
            </dd>
          </dl>
          {account.registrationLocked && account.canModify ? (
            <div className="app-actions">
              <button
                type="button"
                className="app-button"
                id="account-unlock-registration"
                disabled={busy}
                onClick={() => setConfirmingUnlock(true)}
              >
                {t('app.accounts.account.unlockRegistration')}
              </button>
            </div>
          ) : null}
          {may({ type: user.userType }, 'viewAccountingCodes') ? (
            <p>
              <Link id="account-coding-link" to={`${base}/accounts/${account.id}/coding`}>
                {t('app.accounts.account.coding')}
              </Link>
            </p>
          ) : null}
          {account.canModify && changeable.length + codes.length > 0 ? (
            <AppForm
              form={statusForm}
              errorId="account-status-form-error"
              inline
              onSubmit={async (values) => {
                const change = choiceOf(values.status);
                if (change) setConfirming(change);
              }}
            >
              <SelectField
                control={statusForm.control}
                name="status"
                id="account-next-status"
                label={t('app.accounts.account.newStatus')}
                placeholder={t('app.accounts.account.choose')}
                options={[
                  ...changeable.map((s) => ({ value: `status:${s}`, label: t(`app.accounts.status.${s}`) })),
                  ...codes.map((c) => ({
                    value: `code:${c.code}`,
                    label: t(
                      'app.accounts.account.statusCode',
                      c.code,
                      c.description,
                      t(`app.accounts.status.${c.status}`),
                    ),
                  })),
                ]}
              />
              <SubmitButton form={statusForm} id="account-status-submit" disabled={busy || !nextStatus}>
                {t('app.accounts.account.changeStatus')}
              </SubmitButton>
            </AppForm>
          ) : null}
          {account.canModify && account.status !== 'Closed' && groups.length > 1 ? (
            <AppForm
              form={moveForm}
              errorId="account-move-form-error"
              inline
              onSubmit={async ({ groupId }) => {
                if (!groupId) return;
                setDone(undefined);
                changeStatus.reset();
                unlock.reset();
                await move.mutateAsync(Number(groupId));
                afterChange('moved');
              }}
            >
              <SelectField
                control={moveForm.control}
                name="groupId"
                id="account-next-group"
                label={t('app.accounts.account.moveTo')}
                placeholder={t('app.accounts.account.choose')}
                options={groups
                  .filter((g) => g.id !== account.group?.id)
                  .map((g) => ({ value: String(g.id), label: g.name }))}
              />
              <SubmitButton form={moveForm} id="account-move-submit" disabled={busy || !nextGroup}>
                {t('app.accounts.account.move')}
              </SubmitButton>
            </AppForm>
          ) : null}
        </>
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={
          account && confirming
            ? t(
                'app.accounts.account.confirm',
                account.maskedNumber,
                t(`app.accounts.status.${confirming.status}`),
              )
            : ''
        }
        body={
          confirming?.status === 'Closed'
            ? t('app.accounts.account.confirmClose')
            : t('app.accounts.account.confirmBody')
        }
        confirmLabel={t('app.accounts.account.changeStatus')}
        onConfirm={confirmStatus}
        onCancel={() => setConfirming(undefined)}
      />
      <ConfirmDialog
        open={confirmingUnlock}
        idPrefix="unlock-confirm"
        title={account ? t('app.accounts.account.unlockConfirm', account.maskedNumber) : ''}
        body={t('app.accounts.account.unlockConfirmBody')}
        confirmLabel={t('app.accounts.account.unlockRegistration')}
        onConfirm={confirmUnlock}
        onCancel={() => setConfirmingUnlock(false)}
      />
    </>
  );
}
