import { LOCALE_NAMES, type Locale } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { mayUseRoles } from '../../frame/permissions.ts';
import { StatusPill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { rememberRecent } from '../../lib/recent.ts';
import { nameOf } from './people-columns.tsx';
import { userQuery, useUserAction } from './people-queries.ts';
import { UserAccessAs } from './user-access-as.tsx';
import { UserLinkPanel } from './user-link-panel.tsx';
import { UserRolesPanel } from './user-roles-panel.tsx';

type Action = 'deactivate' | 'reactivate' | 'unlock';

/** One user: its details and, where the server allows, edit, deactivate/reactivate and unlock. */
export function UserViewScreen() {
  const { t, user: me, problemText, format } = useApp();
  const { userId = '' } = useParams();
  const location = useLocation();
  const query = useQuery(userQuery(userId));
  const detail = query.data;
  const change = useUserAction();
  const [confirming, setConfirming] = useState<Action | undefined>();
  const [done, setDone] = useState<KeySuffix<'app.people.done.'> | undefined>(
    (location.state as { done?: KeySuffix<'app.people.done.'> } | null)?.done,
  );
  const problem = query.isError
    ? problemOf(query.error)
    : change.isError
      ? problemOf(change.error)
      : undefined;
  usePageTitle(t('app.people.view.heading', userId));

  // A user shown is remembered as recently viewed (the global search offers it).
  useEffect(() => {
    if (detail)
      rememberRecent(me.userId, { kind: 'user', id: detail.userId, label: nameOf(detail) || detail.userId });
  }, [detail, me.userId]);

  const run = (next: Action) => {
    setConfirming(undefined);
    setDone(undefined);
    change.mutate({ userId, action: next }, { onSuccess: () => setDone(next) });
  };

  const date = (iso: string | null) => (iso ? format.dateTime(iso, 'short') : t('app.people.view.never'));

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
      {query.isPending ? <p role="status">{t('common.loading')}</p> : null}
      {detail ? (
        <>
          <dl className="app-facts" id="user-facts">
            <dt>{t('app.userId')}</dt>
            <dd>{detail.userId}</dd>
            <dt>{t('app.people.field.name')}</dt>
            <dd>{nameOf(detail)}</dd>
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
            {detail.singleSignOn ? (
              <>
                <dt>{t('app.people.field.singleSignOn')}</dt>
                <dd id="user-sso">
                  {detail.singleSignOn.provider
                    ? `${detail.singleSignOn.provider} (${detail.singleSignOn.subject ?? ''})`
                    : t('app.people.singleSignOn.notLinked')}
                </dd>
              </>
            ) : null}
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
                  disabled={change.isPending}
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
        onConfirm={() => confirming && run(confirming)}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
