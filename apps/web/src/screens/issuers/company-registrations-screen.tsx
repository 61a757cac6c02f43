import {
  COMPANY_REGISTRATION_STATUSES,
  type CompanyRegistration,
  type CompanyRegistrationStatus,
  LIMITS,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Dialog } from '../../frame/aria/dialog.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { ReasonForm } from '../../frame/form/reason-form.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useFocusOnProblem } from '../../frame/use-focus-on-problem.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type App, displayName, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  APPROVAL_CODE_FIELDS,
  approvalFormSchema,
  type CompanyRegistrationChange,
  companyRegistrationsQuery,
  INVITATION_CODE_FIELDS,
  invitationFormSchema,
  useChangeCompanyRegistration,
} from './issuers-queries.ts';

const col = dataColumns<CompanyRegistration>();

/** The pill's look of each status (frame/status-pill.tsx's classes): waiting, to decide, done, refused. */
const STATUS_LOOK: Record<CompanyRegistrationStatus, string> = {
  Invited: 'tx-new',
  Applied: 'suspended',
  Approved: 'active',
  Declined: 'closed',
};

/** A registration's status as a pill, and a second one when its code is locked after failed attempts. */
function RegistrationStatus({ registration }: { registration: CompanyRegistration }) {
  const { t } = useApp();
  return (
    <>
      <span className={`app-status app-status--${STATUS_LOOK[registration.status]}`}>
        {t(`app.companyRegistrations.status.${registration.status}`)}
      </span>
      {registration.locked ? (
        <>
          {' '}
          <span className="app-status app-status--locked">{t('app.companyRegistrations.locked')}</span>
        </>
      ) : null}
    </>
  );
}

/**
 * The list's columns: company (names the row), corporate code, status, invited, the applicant (once
 * the company applied) and the Review button. A page of a keyset list: the server's order, not sortable.
 */
function registrationColumns({
  t,
  format,
  onReview,
}: Pick<App, 't' | 'format'> & {
  onReview: (registration: CompanyRegistration) => void;
}): DataColumn<CompanyRegistration>[] {
  return col.columns([
    col.accessor('companyName', {
      header: t('app.companyRegistrations.column.companyName'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: ({ row: { original: r } }) => <span id={`registration-name-${r.id}`}>{r.companyName}</span>,
    }),
    col.accessor('code', { header: t('app.companyRegistrations.column.code') }),
    col.accessor('status', {
      header: t('app.companyRegistrations.column.status'),
      cell: ({ row: { original: r } }) => <RegistrationStatus registration={r} />,
    }),
    col.accessor('invitedAt', {
      header: t('app.companyRegistrations.column.invitedAt'),
      cell: (cell) => format.dateTime(cell.getValue(), 'short'),
    }),
    col.display({
      id: 'applicant',
      header: t('app.companyRegistrations.column.applicant'),
      cell: ({ row: { original: r } }) =>
        r.application ? (
          <>
            {displayName(r.application)}
            <div className="app-hint">{r.application.userId}</div>
          </>
        ) : null,
    }),
    col.display({
      id: 'actions',
      header: t('app.companyRegistrations.column.actions'),
      enableHiding: false,
      cell: ({ row: { original: r } }) => (
        <button
          type="button"
          id={`registration-review-${r.id}`}
          className="app-button app-button--small"
          // "Review" names the action; the row's company tells which one.
          aria-describedby={`registration-name-${r.id}`}
          onClick={() => onReview(r)}
        >
          {t('app.companyRegistrations.view')}
        </button>
      ),
    }),
  ]);
}

/** The status filter (all, or one status), kept in the URL: a new filter starts at the first page. */
function useStatusFilter() {
  const [params, setParams] = useSearchParams();
  const value = params.get('status') ?? '';
  const status = COMPANY_REGISTRATION_STATUSES.find((s) => s === value);
  return {
    status,
    set: (next: string) => {
      const p = new URLSearchParams();
      if (next) p.set('status', next);
      setParams(p);
    },
  };
}

type Done = 'invited' | 'approved' | 'declined' | 'unlocked' | 'withdrawn';

/**
 * An issuer's company self-registrations (issue 18 item 1, docs/self-registration.md): invite a company
 * by name with a corporate code, follow the invitations newest first (by status), and review each: the
 * company's application approved (the company and its first program administrator are made) or
 * declined, a code locked after failed attempts unlocked, an unused invitation withdrawn. A system
 * administrator reads only (the server's `canModify`).
 */
export function CompanyRegistrationsScreen() {
  const { t, problemText, format } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.companyRegistrations.heading', number));
  const paging = useKeysetCursor();
  const filter = useStatusFilter();
  const position = { ...paging.cursor, status: filter.status };
  const list = useQuery({
    ...companyRegistrationsQuery(number, position),
    placeholderData: keepPreviousData,
  });
  const page = list.data;
  const change = useChangeCompanyRegistration(number);
  const [done, setDone] = useState<{ kind: Done; args: string[] } | undefined>();
  const [actionProblem, setActionProblem] = useState<string | undefined>();
  // The registration under review: its row as the list now has it (read again after each change).
  const [reviewing, setReviewing] = useState<CompanyRegistration | undefined>();
  const current = reviewing ? (page?.rows.find((r) => r.id === reviewing.id) ?? reviewing) : undefined;
  const problem = actionProblem ?? (list.isError ? problemOf(list.error) : undefined);
  const problemRef = useFocusOnProblem(problem);
  const invite = useAppForm({
    schema: invitationFormSchema,
    defaultValues: { companyName: '', code: '' },
    codeFields: INVITATION_CODE_FIELDS,
  });
  const columns = useMemo(
    () =>
      registrationColumns({
        t,
        format,
        onReview: (r) => {
          setActionProblem(undefined);
          setReviewing(r);
        },
      }),
    [t, format],
  );

  const started = () => {
    setActionProblem(undefined);
    setDone(undefined);
  };
  /** A change from the review: the dialog closes on its answer; a refusal shows in the summary. */
  const decide = async (decision: CompanyRegistrationChange & { kind: 'unlock' | 'withdraw' }) => {
    started();
    try {
      await change.mutateAsync(decision);
      setDone({ kind: decision.kind === 'unlock' ? 'unlocked' : 'withdrawn', args: [] });
    } catch (error) {
      setActionProblem(problemOf(error));
    } finally {
      setReviewing(undefined);
    }
  };

  return (
    <>
      <h1>{t('app.companyRegistrations.heading', number)}</h1>
      <p>
        <Link to={`/issuers/${encodeURIComponent(number)}`}>{t('app.companyRegistrations.back')}</Link>
      </p>
      <p>{t('app.companyRegistrations.intro')}</p>
      {page && !page.enabled ? (
        <p className="app-notice" id="registrations-option-off">
          {t('app.companyRegistrations.optionOff')}
        </p>
      ) : null}
      <ErrorSummary
        id="registrations-error"
        ref={problemRef}
        message={problem ? problemText(problem) : undefined}
      />
      <p role="status" id="registrations-done" className="app-done">
        {done ? t(`app.companyRegistrations.${done.kind}`, ...done.args) : ''}
      </p>
      {page?.canModify && page.enabled ? (
        <section aria-labelledby="invite-heading" className="app-section">
          <h2 id="invite-heading">{t('app.companyRegistrations.invite.heading')}</h2>
          <AppForm
            form={invite}
            id="invite-form"
            errorId="invite-error"
            onSubmit={async (values) => {
              started();
              const made = await change.mutateAsync({
                kind: 'invite',
                companyName: values.companyName.trim(),
                code: values.code.trim() || null,
              });
              invite.reset({ companyName: '', code: '' });
              setDone({ kind: 'invited', args: [made?.code ?? ''] });
            }}
          >
            <TextField
              control={invite.control}
              name="companyName"
              id="invite-companyName"
              label={t('app.companyRegistrations.invite.companyName')}
              maxLength={LIMITS.orgNameMaxLength}
              autoComplete="off"
              required
            />
            <TextField
              control={invite.control}
              name="code"
              id="invite-code"
              label={t('app.companyRegistrations.invite.code')}
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
            />
            <div className="app-actions">
              <SubmitButton form={invite} id="invite-submit">
                {t('app.companyRegistrations.invite.submit')}
              </SubmitButton>
            </div>
          </AppForm>
        </section>
      ) : null}
      <section aria-labelledby="registrations-heading">
        <h2 id="registrations-heading">{t('app.companyRegistrations.link')}</h2>
        <p className="app-filter">
          <label htmlFor="registrations-status">{t('app.companyRegistrations.filter.status')}</label>{' '}
          <select
            id="registrations-status"
            value={filter.status ?? ''}
            onChange={(event) => filter.set(event.target.value)}
          >
            <option value="">{t('app.companyRegistrations.filter.all')}</option>
            {COMPANY_REGISTRATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`app.companyRegistrations.status.${s}`)}
              </option>
            ))}
          </select>
        </p>
        <DataTable
          id="registrations"
          caption={t('app.companyRegistrations.link')}
          columns={columns}
          data={page?.rows}
          getRowId={(r) => String(r.id)}
          loading={list.isFetching}
          empty={t('app.companyRegistrations.empty')}
          paging={page ? paging.pager('registrations-paging', page) : undefined}
        />
      </section>
      {current ? (
        <ReviewDialog
          key={current.id}
          registration={current}
          canModify={page?.canModify === true}
          busy={change.isPending}
          onClose={() => setReviewing(undefined)}
          onApprove={async (values) => {
            started();
            const answer = await change.mutateAsync({ kind: 'approve', id: current.id, ...values });
            setReviewing(undefined);
            setDone({
              kind: 'approved',
              args: [
                answer?.decision?.companyNumber ?? values.companyNumber,
                answer?.application?.userId ?? current.application?.userId ?? '',
              ],
            });
          }}
          onDecline={async (reason) => {
            started();
            await change.mutateAsync({ kind: 'decline', id: current.id, reason });
            setReviewing(undefined);
            setDone({ kind: 'declined', args: [] });
          }}
          onUnlock={() => void decide({ kind: 'unlock', id: current.id })}
          onWithdraw={() => void decide({ kind: 'withdraw', id: current.id })}
        />
      ) : null}
    </>
  );
}

/**
 * One registration in a modal dialog (focus kept inside, Escape closes, focus back to its Review
 * button). Focus starts on the dialog itself, so its heading and the facts are read before any form:
 * what the bank and the company said, and — for those who may decide — approve and decline
 * forms for an application, Unlock for a locked code, Withdraw (confirmed) for an unused invitation.
 */
function ReviewDialog({
  registration: r,
  canModify,
  busy,
  onClose,
  onApprove,
  onDecline,
  onUnlock,
  onWithdraw,
}: {
  registration: CompanyRegistration;
  canModify: boolean;
  busy: boolean;
  onClose: () => void;
  onApprove: (values: { companyNumber: string; groupName?: string }) => Promise<void>;
  onDecline: (reason: string) => Promise<void>;
  onUnlock: () => void;
  onWithdraw: () => void;
}) {
  const { t, format } = useApp();
  const [confirming, setConfirming] = useState(false);
  const none = t('app.none');
  const deciding = canModify && r.status === 'Applied';
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('app.companyRegistrations.detail.heading', r.companyName)}
      id="registration-dialog"
    >
      <dl className="app-facts" id="registration-facts">
        <dt>{t('app.companyRegistrations.column.code')}</dt>
        <dd id="registration-code">{r.code}</dd>
        <dt>{t('app.companyRegistrations.column.status')}</dt>
        <dd id="registration-status">
          <RegistrationStatus registration={r} />
        </dd>
        <dt>{t('app.companyRegistrations.column.invitedAt')}</dt>
        <dd>{format.dateTime(r.invitedAt, 'short')}</dd>
        <dt>{t('app.companyRegistrations.field.invitedBy')}</dt>
        <dd>{r.invitedBy ?? none}</dd>
        {r.application ? (
          <>
            <dt>{t('app.companyRegistrations.field.companyName2')}</dt>
            <dd>{r.application.companyName2 || none}</dd>
            <dt>{t('app.companyRegistrations.field.admin')}</dt>
            <dd>{displayName(r.application)}</dd>
            <dt>{t('app.companyRegistrations.field.userId')}</dt>
            <dd id="registration-userId">{r.application.userId}</dd>
            <dt>{t('app.companyRegistrations.field.email')}</dt>
            <dd>{r.application.email}</dd>
            <dt>{t('app.companyRegistrations.field.appliedAt')}</dt>
            <dd>{format.dateTime(r.application.appliedAt, 'short')}</dd>
          </>
        ) : null}
        {r.decision ? (
          <>
            <dt>{t('app.companyRegistrations.field.decidedBy')}</dt>
            <dd>
              {r.decision.by ?? none}
              <div className="app-hint">{format.dateTime(r.decision.at, 'short')}</div>
            </dd>
            {r.decision.companyNumber ? (
              <>
                <dt>{t('app.companyRegistrations.field.companyNumber')}</dt>
                <dd id="registration-companyNumber">{r.decision.companyNumber}</dd>
              </>
            ) : null}
            {r.decision.reason ? (
              <>
                <dt>{t('app.companyRegistrations.field.reason')}</dt>
                <dd id="registration-reason">{r.decision.reason}</dd>
              </>
            ) : null}
          </>
        ) : null}
      </dl>
      {deciding ? (
        <>
          <ApproveForm onApprove={onApprove} />
          <ReasonForm
            heading={t('app.companyRegistrations.decline.heading')}
            label={t('app.companyRegistrations.decline.reason')}
            submit={t('app.companyRegistrations.decline.submit')}
            onSubmit={onDecline}
          />
        </>
      ) : null}
      <div className="app-actions">
        {canModify && r.locked ? (
          <button
            type="button"
            className="app-button"
            id="registration-unlock"
            disabled={busy}
            onClick={onUnlock}
          >
            {t('app.companyRegistrations.unlock')}
          </button>
        ) : null}
        {canModify && r.status === 'Invited' ? (
          <button
            type="button"
            className="app-button app-button--danger"
            id="registration-withdraw"
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            {t('app.companyRegistrations.withdraw')}
          </button>
        ) : null}
        <button type="button" className="app-button" id="registration-close" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        idPrefix="withdraw"
        title={t('app.companyRegistrations.withdrawConfirm', r.companyName)}
        body={t('app.companyRegistrations.withdrawConfirmBody')}
        confirmLabel={t('app.companyRegistrations.withdraw')}
        onConfirm={() => {
          setConfirming(false);
          onWithdraw();
        }}
        onCancel={() => setConfirming(false)}
      />
    </Dialog>
  );
}

/** Approves an application: the new company's number (the company rules) and, optionally, its group. */
function ApproveForm({
  onApprove,
}: {
  onApprove: (values: { companyNumber: string; groupName?: string }) => Promise<void>;
}) {
  const { t } = useApp();
  const form = useAppForm({
    schema: approvalFormSchema,
    defaultValues: { companyNumber: '', groupName: '' },
    codeFields: APPROVAL_CODE_FIELDS,
  });
  return (
    <section aria-labelledby="approve-heading">
      <h3 id="approve-heading">{t('app.companyRegistrations.approve.heading')}</h3>
      <AppForm
        form={form}
        id="approve-form"
        errorId="approve-error"
        summaryHeadingLevel={3}
        onSubmit={async (values) => {
          const groupName = values.groupName.trim();
          await onApprove({
            companyNumber: values.companyNumber.trim(),
            ...(groupName ? { groupName } : {}),
          });
        }}
      >
        <TextField
          control={form.control}
          name="companyNumber"
          id="approve-companyNumber"
          label={t('app.companyRegistrations.approve.companyNumber')}
          inputMode="numeric"
          maxLength={LIMITS.companyNumberMaxDigits}
          autoComplete="off"
          spellCheck={false}
          required
        />
        <TextField
          control={form.control}
          name="groupName"
          id="approve-groupName"
          label={t('app.companyRegistrations.approve.groupName')}
          maxLength={LIMITS.groupNameMaxLength}
          autoComplete="off"
        />
        <div className="app-actions">
          <SubmitButton form={form} id="approve-submit">
            {t('app.companyRegistrations.approve.submit')}
          </SubmitButton>
        </div>
      </AppForm>
    </section>
  );
}
