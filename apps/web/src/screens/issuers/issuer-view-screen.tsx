import type { CompanyGroupList, IssuerDetail } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import {
  createCompanyGroup,
  deleteIssuer,
  getIssuer,
  listCompanyGroups,
  renameCompanyGroup,
  setCompanyGroupActive,
  setIssuerActive,
} from '../../api/issuers.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { GroupTable } from './group-table.tsx';

type IssuerAction = 'deactivate' | 'reactivate' | 'delete';

const codeOf = (error: unknown) => (error instanceof ApiError ? error.code : 'error.generic');

/** One issuer: its details, actions by what the server allows, its company groups and options link. */
export function IssuerViewScreen() {
  const { t, problemText } = useApp();
  const { number = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [issuer, setIssuer] = useState<IssuerDetail | undefined>();
  const [groups, setGroups] = useState<CompanyGroupList | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>((location.state as { done?: string } | null)?.done);
  const [confirming, setConfirming] = useState<IssuerAction | undefined>();
  const [busy, setBusy] = useState(false);
  usePageTitle(t('app.issuers.view.heading', number));

  const loadGroups = useCallback(
    (signal?: AbortSignal) =>
      listCompanyGroups(number, signal).then(setGroups, (error: unknown) => {
        if (!signal?.aborted) setProblem(codeOf(error));
      }),
    [number],
  );

  useEffect(() => {
    const controller = new AbortController();
    setIssuer(undefined);
    setGroups(undefined);
    setProblem(undefined);
    getIssuer(number, controller.signal).then(
      (found) => {
        setIssuer(found);
        void loadGroups(controller.signal);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setProblem(codeOf(error));
      },
    );
    return () => controller.abort();
  }, [number, loadGroups]);

  const run = async (action: IssuerAction) => {
    setConfirming(undefined);
    setBusy(true);
    setProblem(undefined);
    setDone(undefined);
    try {
      if (action === 'delete') {
        await deleteIssuer(number);
        navigate('/issuers', { replace: true });
        return;
      }
      setIssuer(await setIssuerActive(number, action === 'reactivate'));
      setDone(action);
    } catch (error) {
      setProblem(codeOf(error));
    } finally {
      setBusy(false);
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
            {!groups ? <p>{t('common.loading')}</p> : null}
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
                onCreate={async (name) => {
                  await createCompanyGroup(number, name);
                  await loadGroups();
                }}
                onRename={async (id, name) => {
                  await renameCompanyGroup(number, id, name);
                  await loadGroups();
                }}
                onSetActive={async (id, active) => {
                  await setCompanyGroupActive(number, id, active);
                  await loadGroups();
                }}
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
