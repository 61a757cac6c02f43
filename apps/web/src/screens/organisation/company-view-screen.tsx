import { may, type OrgPointNode } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { structureDownloadUrl } from '../../api/organisations.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type KeySuffix, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { OrgPointDialog } from './org-point-dialog.tsx';
import { OrgTree, type PointAction } from './org-tree.tsx';
import {
  companyQuery,
  forgetCompany,
  structureQuery,
  useChangeOrgPoint,
  useDeleteCompany,
  useSetCompanyActive,
} from './organisation-queries.ts';
import { SelfRegistrationSection } from './self-registration-section.tsx';
import { StructureUpload } from './structure-upload.tsx';

type CompanyAction = 'deactivate' | 'reactivate' | 'delete';
type Confirming =
  | { kind: 'company'; action: CompanyAction }
  | { kind: 'point'; action: 'deactivate' | 'reactivate' | 'delete'; point: OrgPointNode };
type Editing = { point?: OrgPointNode; parent?: OrgPointNode };

/** One company: its details, actions by the caller's type, and its reporting structure as a tree. */
export function CompanyViewScreen() {
  const { t, user, problemText } = useApp();
  const { number = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  // Set once the company is deleted: its reads stop (the screen is leaving).
  const [gone, setGone] = useState(false);
  const companyRead = useQuery({ ...companyQuery(number), enabled: !gone });
  const company = companyRead.data;
  const structureRead = useQuery({ ...structureQuery(number), enabled: company !== undefined && !gone });
  const structure = structureRead.data;
  const setActive = useSetCompanyActive();
  const remove = useDeleteCompany();
  const changePoint = useChangeOrgPoint(number);
  const [actionProblem, setActionProblem] = useState<string | undefined>();
  const [done, setDone] = useState<KeySuffix<'app.org.done.'> | undefined>(
    (location.state as { done?: KeySuffix<'app.org.done.'> } | null)?.done,
  );
  const [confirming, setConfirming] = useState<Confirming | undefined>();
  const [editing, setEditing] = useState<Editing | undefined>();
  const busy = setActive.isPending || remove.isPending || changePoint.isPending;
  usePageTitle(t('app.org.view.heading', number));
  const readFailure = companyRead.isError
    ? companyRead.error
    : structureRead.isError
      ? structureRead.error
      : null;
  const problem = actionProblem ?? (readFailure ? problemOf(readFailure) : undefined);

  const start = () => {
    setConfirming(undefined);
    setActionProblem(undefined);
    setDone(undefined);
  };

  const runCompany = async (action: CompanyAction) => {
    start();
    try {
      if (action === 'delete') {
        await remove.mutateAsync(number);
        setGone(true);
        navigate('/organisation', { replace: true });
        forgetCompany(client, number);
        return;
      }
      await setActive.mutateAsync({ number, active: action === 'reactivate' });
      setDone(action);
    } catch (error) {
      setActionProblem(problemOf(error));
    }
  };

  const runPoint = async (action: 'deactivate' | 'reactivate' | 'delete', point: OrgPointNode) => {
    start();
    try {
      await changePoint.mutateAsync({ point: point.number, action });
      setDone('point.saved');
    } catch (error) {
      setActionProblem(problemOf(error));
    }
  };

  const onPointAction = (action: PointAction, point: OrgPointNode) => {
    if (action === 'edit') setEditing({ point });
    else if (action === 'add') setEditing({ parent: point });
    else setConfirming({ kind: 'point', action, point });
  };

  const confirmTitle = !confirming
    ? ''
    : confirming.kind === 'company'
      ? t(`app.org.confirm.${confirming.action}`, number)
      : t(`app.org.point.confirm.${confirming.action}`, confirming.point.number);
  const confirmBody = !confirming
    ? ''
    : confirming.kind === 'company'
      ? t(`app.org.confirm.${confirming.action}Body`)
      : t(`app.org.point.confirm.${confirming.action}Body`);

  const mayModify = may({ type: user.userType }, 'modifyCompany');
  const mayDelete = may({ type: user.userType }, 'deleteCompany');
  const canModify = structure?.canModify ?? false;

  return (
    <>
      <h1>{t('app.org.view.heading', number)}</h1>
      {/* The company's tabs under its heading, as on each of its screens. */}
      {may({ type: user.userType }, 'viewAccounts') ? <CompanyTabs number={number} /> : null}
      <p>
        <Link to="/organisation">{t('app.org.view.back')}</Link>
      </p>
      <ErrorSummary id="company-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="company-done" className="app-done">
        {done ? t(`app.org.done.${done}`) : ''}
      </p>
      {!company && !problem ? <p>{t('common.loading')}</p> : null}
      {company ? (
        <>
          <dl className="app-facts" id="company-facts">
            <dt>{t('app.org.field.number')}</dt>
            <dd>{company.number}</dd>
            <dt>{t('app.org.field.name1')}</dt>
            <dd>{company.name1}</dd>
            <dt>{t('app.org.field.name2')}</dt>
            <dd>{company.name2}</dd>
            <dt>{t('app.org.field.issuer')}</dt>
            <dd>
              {company.issuerName} ({company.issuerNumber})
            </dd>
            <dt>{t('app.org.field.groupName')}</dt>
            <dd>{company.groupName ?? t('app.none')}</dd>
            <dt>{t('app.org.field.multiUser')}</dt>
            <dd id="company-multi-user">{company.multiUser ? t('app.org.on') : t('app.org.off')}</dd>
            <dt>{t('app.people.field.status')}</dt>
            <dd id="company-status">
              <ActivePill active={company.active} />
            </dd>
          </dl>
          <div className="app-actions">
            {mayModify ? (
              <Link to="edit" className="app-button" id="company-edit">
                {t('app.people.action.edit')}
              </Link>
            ) : null}
            {may({ type: user.userType }, 'viewCompanyOptions') ? (
              <Link to="program-options" className="app-button" id="company-options">
                {t('app.options.action')}
              </Link>
            ) : null}
            {mayDelete ? (
              <>
                <button
                  type="button"
                  id={company.active ? 'company-deactivate' : 'company-reactivate'}
                  className={`app-button${company.active ? ' app-button--danger' : ''}`}
                  disabled={busy}
                  onClick={() =>
                    setConfirming({ kind: 'company', action: company.active ? 'deactivate' : 'reactivate' })
                  }
                >
                  {t(`app.people.action.${company.active ? 'deactivate' : 'reactivate'}`)}
                </button>
                <button
                  type="button"
                  id="company-delete"
                  className="app-button app-button--danger"
                  disabled={busy}
                  onClick={() => setConfirming({ kind: 'company', action: 'delete' })}
                >
                  {t('app.org.action.delete')}
                </button>
              </>
            ) : null}
          </div>

          {may({ type: user.userType }, 'viewSelfRegistration') ? (
            <SelfRegistrationSection company={company.number} />
          ) : null}

          <section aria-labelledby="structure-heading">
            <h2 id="structure-heading">{t('app.org.tree.heading')}</h2>
            <div className="app-actions">
              <a
                className="app-button"
                id="structure-download"
                href={structureDownloadUrl(company.number)}
                download
              >
                {t('app.org.download')}
              </a>
              {canModify ? (
                <button type="button" className="app-button" id="point-create" onClick={() => setEditing({})}>
                  {t('app.org.point.createHeading')}
                </button>
              ) : null}
            </div>
            {!structure && !structureRead.isError ? <p>{t('common.loading')}</p> : null}
            {structure && structure.roots.length === 0 ? <p>{t('app.org.tree.empty')}</p> : null}
            {structure && structure.roots.length > 0 ? (
              <OrgTree
                roots={structure.roots}
                label={t('app.org.tree.label', company.name1)}
                canModify={canModify}
                onAction={onPointAction}
              />
            ) : null}
          </section>
          {canModify ? <StructureUpload company={company.number} /> : null}
        </>
      ) : null}
      {editing && structure ? (
        <OrgPointDialog
          company={number}
          roots={structure.roots}
          point={editing.point}
          parent={editing.parent}
          onSaved={() => {
            setEditing(undefined);
            setDone('point.saved');
          }}
          onCancel={() => setEditing(undefined)}
        />
      ) : null}
      <ConfirmDialog
        open={confirming !== undefined}
        title={confirmTitle}
        body={confirmBody}
        confirmLabel={
          confirming
            ? confirming.action === 'delete'
              ? t('app.org.action.delete')
              : t(`app.people.action.${confirming.action}`)
            : ''
        }
        onConfirm={() => {
          if (!confirming) return;
          if (confirming.kind === 'company') void runCompany(confirming.action);
          else void runPoint(confirming.action, confirming.point);
        }}
        onCancel={() => setConfirming(undefined)}
      />
    </>
  );
}
