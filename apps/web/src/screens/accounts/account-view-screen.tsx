import {
  ACCOUNT_STATUSES,
  type AccountDetail,
  type AccountGroupSummary,
  type AccountStatus,
  checkAccountStatusChange,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { getAccount, listAccountGroups, moveAccount, setAccountStatus } from '../../api/accounts.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { AccountStatusPill, codeOfError, fullName } from './shared.tsx';

/**
 * One card account, masked (at most the BIN and the last four): cardholder, group, status. An
 * administrator changes its status (through the confirmation dialog) and moves it to another group.
 */
export function AccountViewScreen() {
  const { t, problemText } = useApp();
  const { number = '', id = '' } = useParams();
  const [account, setAccount] = useState<AccountDetail | undefined>();
  const [groups, setGroups] = useState<AccountGroupSummary[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [nextStatus, setNextStatus] = useState<AccountStatus | ''>('');
  const [nextGroup, setNextGroup] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  usePageTitle(t('app.accounts.account.heading', account?.maskedNumber ?? ''));

  useEffect(() => {
    const controller = new AbortController();
    setAccount(undefined);
    setProblem(undefined);
    getAccount(number, id, controller.signal).then(
      (found) => {
        setAccount(found);
        if (found.canModify)
          listAccountGroups(number, controller.signal).then(
            (list) => setGroups(list.rows.filter((g) => g.active)),
            () => undefined,
          );
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setProblem(codeOfError(error));
      },
    );
    return () => controller.abort();
  }, [number, id]);

  const changeable = account
    ? ACCOUNT_STATUSES.filter((s) => s !== account.status && !checkAccountStatusChange(account.status, s))
    : [];

  const askStatus = (event: FormEvent) => {
    event.preventDefault();
    if (nextStatus) setConfirming(true);
  };

  const run = async (work: () => Promise<AccountDetail>, message: string) => {
    setConfirming(false);
    setBusy(true);
    setProblem(undefined);
    setDone(undefined);
    try {
      setAccount(await work());
      setDone(message);
      setNextStatus('');
      setNextGroup('');
    } catch (error) {
      setProblem(codeOfError(error));
    } finally {
      setBusy(false);
    }
  };

  const move = (event: FormEvent) => {
    event.preventDefault();
    if (nextGroup) void run(() => moveAccount(number, id, Number(nextGroup)), 'moved');
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
        {done ? t(`app.accounts.done.${done}`) : ''}
      </p>
      {!account && !problem ? <p>{t('common.loading')}</p> : null}
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
              ) : null}
            </dd>
            <dt>{t('app.accounts.field.group')}</dt>
            <dd id="account-group-name">{account.group?.name ?? ''}</dd>
            <dt>{t('app.people.field.status')}</dt>
            <dd id="account-status">
              <AccountStatusPill status={account.status} />
            </dd>
          </dl>
          {account.canModify && changeable.length > 0 ? (
            <form className="app-form app-form--inline" onSubmit={askStatus} noValidate>
              <div className="cp-field">
                <label className="cp-field__label" htmlFor="account-next-status">
                  {t('app.accounts.account.newStatus')}
                </label>
                <select
                  id="account-next-status"
                  className="cp-field__input"
                  value={nextStatus}
                  onChange={(e) => setNextStatus(e.target.value as AccountStatus | '')}
                >
                  <option value="">{t('app.accounts.account.choose')}</option>
                  {changeable.map((s) => (
                    <option key={s} value={s}>
                      {t(`app.accounts.status.${s}`)}
                    </option>
                  ))}
                </select>
              </div>
              <button
                type="submit"
                className="app-button"
                id="account-status-submit"
                disabled={busy || !nextStatus}
              >
                {t('app.accounts.account.changeStatus')}
              </button>
            </form>
          ) : null}
          {account.canModify && account.status !== 'Closed' && groups.length > 1 ? (
            <form className="app-form app-form--inline" onSubmit={move} noValidate>
              <div className="cp-field">
                <label className="cp-field__label" htmlFor="account-next-group">
                  {t('app.accounts.account.moveTo')}
                </label>
                <select
                  id="account-next-group"
                  className="cp-field__input"
                  value={nextGroup}
                  onChange={(e) => setNextGroup(e.target.value)}
                >
                  <option value="">{t('app.accounts.account.choose')}</option>
                  {groups
                    .filter((g) => g.id !== account.group?.id)
                    .map((g) => (
                      <option key={g.id} value={String(g.id)}>
                        {g.name}
                      </option>
                    ))}
                </select>
              </div>
              <button
                type="submit"
                className="app-button"
                id="account-move-submit"
                disabled={busy || !nextGroup}
              >
                {t('app.accounts.account.move')}
              </button>
            </form>
          ) : null}
        </>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={
          account && nextStatus
            ? t('app.accounts.account.confirm', account.maskedNumber, t(`app.accounts.status.${nextStatus}`))
            : ''
        }
        body={
          nextStatus === 'Closed'
            ? t('app.accounts.account.confirmClose')
            : t('app.accounts.account.confirmBody')
        }
        confirmLabel={t('app.accounts.account.changeStatus')}
        onConfirm={() => {
          if (nextStatus) void run(() => setAccountStatus(number, id, nextStatus), 'status');
        }}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
