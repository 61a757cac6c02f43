import { ISSUER_CODE_LIST_NAMES, may } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { GroupTable } from './group-table.tsx';
import {
  companyGroupsQuery,
  forgetIssuer,
  issuerQuery,
  useChangeCompanyGroup,
  useDeleteIssuer,
  useSetIssuerActive,
} from './issuers-queries.ts';

type Action = 'deactivate' | 'reactivate' | 'delete';

/** One issuer: its details, actions by what the server allows, its company groups and options link. */
export function IssuerViewScreen() {
  const { t, problemText, user } = useApp();
  const { number = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  // Set once the issuer is deleted: its reads stop (the screen is leaving).
  const [gone, setGone] = useState(false);
  const issuerRead = useQuery({ ...issuerQuery(number), enabled: !gone });
  const issuer = issuerRead.data;
  const groupsRead = useQuery({ ...companyGroupsQuery(number), enabled: issuer !== undefined && !gone });
  const groups = groupsRead.data;
  const setActive = useSetIssuerActive();
  const remove = useDeleteIssuer();
  const changeGroup = useChangeCompanyGroup(number);
  const [actionProblem, setActionProblem] = useState<string | undefined>();
  const [done, setDone] = useState<KeySuffix<'app.issuers.done.'> | 'saved' | undefined>(
    (location.state as { done?: KeySuffix<'app.issuers.done.'> | 'saved' } | null)?.done,
  );
  const [confirming, setConfirming] = useState<Action | undefined>();
  const busy = setActive.isPending || remove.isPending;
  usePageTitle(t('app.issuers.view.heading', number));
  const readProblem = issuerRead.isError
    ? problemOf(issuerRead.error)
    : groupsRead.isError
      ? problemOf(groupsRead.error)
      : undefined;
  const problem = actionProblem ?? readProblem;

  const run = async (action: Action) => {
    setConfirming(undefined);
    setActionProblem(undefined);
    setDone(undefined);
    try {
      if (action === 'delete') {
        await remove.mutateAsync(number);
        setGone(true);
        navigate('/issuers', { replace: true });
        forgetIssuer(client, number);
        return;
      }
      await setActive.mutateAsync({ number, active: action === 'reactivate' });
      setDone(action);
    } catch (error) {
      setActionProblem(problemOf(error));
    }
  };

  return (
    <>
      <h1>{t('app.issuers.view.heading', number)}</h1>
      <p>
        <Link to="/issuers">{t('app.issuers.view.back')}</Link>
      </p>
      <ErrorSummary id="issuer-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="issuer-done" className="app-done">
        {done ? t(done === 'saved' ? 'app.org.done.saved' : `app.issuers.done.${done}`) : ''}
      </p>
      {!issuer && !problem ? <p>{t('common.loading')}</p> : null}
      {issuer ? (
        <>
          <dl className="app-facts" id="issuer-facts">
            <dt>{t('app.issuers.field.number')}</dt>
            <dd>{issuer.number}</dd>
            <dt>{t('app.org.field.name1')}</dt>
            <dd>{issuer.name1}</dd>
            <dt>{t('app.org.field.name2')}</dt>
            <dd>{issuer.name2}</dd>
            <dt>{t('app.issuers.field.ica')}</dt>
            <dd>{issuer.ica}</dd>
            <dt>{t('app.issuers.field.bankNumber')}</dt>
            <dd>{issuer.bankNumber}</dd>
            <dt>{t('app.issuers.field.issuerGroup')}</dt>
            <dd>{issuer.issuerGroupName ?? t('app.issuers.none')}</dd>
            <dt>{t('app.issuers.field.cobrand')}</dt>
            <dd>{issuer.cobrand ?? t('app.issuers.none')}</dd>
            <dt>{t('app.issuers.field.passwordMinLength')}</dt>
            <dd id="issuer-passwordMinLength">{issuer.passwordMinLength}</dd>
            <dt>{t('app.issuers.field.passwordDurationDays')}</dt>
            <dd id="issuer-passwordDurationDays">{issuer.passwordDurationDays}</dd>
            <dt>{t('app.issuers.field.cardBins')}</dt>
            <dd id="issuer-cardBins">{issuer.cardBins || t('app.issuers.anyBin')}</dd>
            <dt>{t('app.issuers.field.accountDigits')}</dt>
            <dd id="issuer-accountDigits">{issuer.accountDigits}</dd>
            <dt>{t('app.issuers.field.companyCount')}</dt>
            <dd>{issuer.companyCount}</dd>
            <dt>{t('app.people.field.status')}</dt>
            <dd id="issuer-status">
              <ActivePill active={issuer.active} />
            </dd>
          </dl>
          <div className="app-actions">
            {issuer.allowed.modify ? (
              <Link to="edit" className="app-button" id="issuer-edit">
                {t('app.people.action.edit')}
              </Link>
            ) : null}
            <Link to="program-options" className="app-button" id="issuer-options">
              {t('app.options.action')}
            </Link>
            {ISSUER_CODE_LIST_NAMES.map((list) => (
              <Link key={list} to={list} className="app-button" id={`issuer-${list}`}>
                {t(`app.issuerCodes.${list}.link`)}
              </Link>
            ))}
            {may({ type: user.userType }, 'viewCompanyRegistrations') ? (
              <Link to="company-registrations" className="app-button" id="issuer-company-registrations">
                {t('app.companyRegistrations.link')}
              </Link>
            ) : null}
            {issuer.allowed.changeStatus ? (
              <>
                <button
                  type="button"
                  id={issuer.active ? 'issuer-deactivate' : 'issuer-reactivate'}
                  className={`app-button${issuer.active ? ' app-button--danger' : ''}`}
                  disabled={busy}
                  onClick={() => setConfirming(issuer.active ? 'deactivate' : 'reactivate')}
                >
                  {t(`app.people.action.${issuer.active ? 'deactivate' : 'reactivate'}`)}
                </button>
                <button
                  type="button"
                  id="issuer-delete"
                  className="app-button app-button--danger"
                  disabled={busy}
                  onClick={() => setConfirming('delete')}
                >
                  {t('app.org.action.delete')}
                </button>
              </>
            ) : null}
          </div>
          <section aria-labelledby="company-groups-heading">
            <h2 id="company-groups-heading">{t('app.companyGroups.heading')}</h2>
            {!groups && !groupsRead.isError ? <p>{t('common.loading')}</p> : null}
            {groups ? (
              <GroupTable
                kind="companyGroup"
                rows={groups.rows.map((r) => ({
                  id: r.id,
                  name: r.name,
                  active: r.active,
                  activeCount: r.activeCompanyCount,
                }))}
                canMaintain={groups.canMaintain}
                onChange={changeGroup.mutateAsync}
              />
            ) : null}
          </section>
        </>
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirming ? t(`app.issuers.confirm.${confirming}`, number) : ''}
        body={confirming ? t(`app.issuers.confirm.${confirming}Body`) : ''}
        confirmLabel={
          confirming
            ? confirming === 'delete'
              ? t('app.org.action.delete')
              : t(`app.people.action.${confirming}`)
            : ''
        }
        onConfirm={() => {
          if (confirming) void run(confirming);
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
