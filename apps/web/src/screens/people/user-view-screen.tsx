import { LOCALE_NAMES, type Locale, type UserDetail } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { getUser, setUserStatus, unlockUser } from '../../api/users.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { mayUseRoles } from '../../frame/permissions.ts';
import { StatusPill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { rememberRecent } from '../../lib/recent.ts';
import { UserAccessAs } from './user-access-as.tsx';
import { UserLinkPanel } from './user-link-panel.tsx';
import { UserRolesPanel } from './user-roles-panel.tsx';

type Action = 'deactivate' | 'reactivate' | 'unlock';

/** One user: its details and, where the server allows, edit, deactivate/reactivate and unlock. */
export function UserViewScreen() {
  const { t, user: me, problemText, languageTag } = useApp();
  const { userId = '' } = useParams();
  const location = useLocation();
  const [detail, setDetail] = useState<UserDetail | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<Action | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | undefined>((location.state as { done?: string } | null)?.done);
  usePageTitle(t('app.people.view.heading', userId));

  useEffect(() => {
    const controller = new AbortController();
    setDetail(undefined);
    setProblem(undefined);
    getUser(userId, controller.signal).then(
      (found) => {
        setDetail(found);
        rememberRecent(me.userId, {
          kind: 'user',
          id: found.userId,
          label: [found.firstName, found.lastName].filter(Boolean).join(' ') || found.userId,
        });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
      },
    );
    return () => controller.abort();
  }, [userId, me.userId]);

  const run = async (action: Action) => {
    setConfirming(undefined);
    setBusy(true);
    setProblem(undefined);
    setDone(undefined);
    try {
      const next =
        action === 'unlock'
          ? await unlockUser(userId)
          : await setUserStatus(userId, action === 'deactivate' ? 'Inactive' : 'Active');
      setDetail(next);
      setDone(action);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.code : 'error.generic');
    } finally {
      setBusy(false);
    }
  };

  const date = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(languageTag, { dateStyle: 'medium', timeStyle: 'short' }).format(
          new Date(iso),
        )
      : t('app.people.view.never');

  return (
    <>
      <h1>{t('app.people.view.heading', userId)}</h1>
      <p>
        <Link to="/people">{t('app.people.view.back')}</Link>
      </p>
      {detail?.readOnly ? (
        <p className="app-notice" id="read-only-notice">
          {t('app.readOnlyNotice')}
        </p>
      ) : null}
      <ErrorSummary id="user-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="user-done" className="app-done">
        {done ? t(`app.people.done.${done}`) : ''}
      </p>
      {!detail && !problem ? <p>{t('common.loading')}</p> : null}
      {detail ? (
        <>
          <dl className="app-facts" id="user-facts">
            <dt>{t('app.userId')}</dt>
            <dd>{detail.userId}</dd>
            <dt>{t('app.people.field.name')}</dt>
            <dd>{[detail.firstName, detail.lastName].filter(Boolean).join(' ')}</dd>
            <dt>{t('app.people.field.email')}</dt>
            <dd>{detail.email}</dd>
            <dt>{t('app.userType')}</dt>
            <dd>{t(`app.userType.${detail.userType}`)}</dd>
            <dt>{t('app.people.field.status')}</dt>
            <dd id="user-status">
              <StatusPill status={detail.status} />
            </dd>
            {detail.company ? (
              <>
                <dt>{t('app.people.field.company')}</dt>
                <dd>
                  {detail.company.name} ({detail.company.number})
                </dd>
              </>
            ) : null}
            <dt>{t('app.people.field.locale')}</dt>
            <dd>{LOCALE_NAMES[detail.locale as Locale] ?? detail.locale}</dd>
            <dt>{t('app.people.field.createdAt')}</dt>
            <dd>{date(detail.createdAt)}</dd>
            <dt>{t('app.lastLogin')}</dt>
            <dd>{date(detail.lastLoginAt)}</dd>
          </dl>
          <div className="app-actions">
            {detail.allowed.modify ? (
              <Link to="edit" className="app-button" id="user-edit">
                {t('app.people.action.edit')}
              </Link>
            ) : null}
            {(['deactivate', 'reactivate', 'unlock'] as const)
              .filter((action) => detail.allowed[action])
              .map((action) => (
                <button
                  key={action}
                  type="button"
                  id={`user-${action}`}
                  className={`app-button${action === 'deactivate' ? ' app-button--danger' : ''}`}
                  disabled={busy}
                  onClick={() => setConfirming(action)}
                >
                  {t(`app.people.action.${action}`)}
                </button>
              ))}
          </div>
          <UserAccessAs detail={detail} />
          {mayUseRoles(me.userType) ? (
            <div className="app-panels">
              <UserRolesPanel userId={detail.userId} />
              <UserLinkPanel userId={detail.userId} />
            </div>
          ) : null}
        </>
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirming ? t(`app.people.confirm.${confirming}`, userId) : ''}
        body={confirming ? t(`app.people.confirm.${confirming}Body`) : ''}
        confirmLabel={confirming ? t(`app.people.action.${confirming}`) : ''}
        onConfirm={() => confirming && void run(confirming)}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
