import {
  CARD_APPLICATION_STATUSES,
  type CardApplication,
  type CardApplicationStatus,
  LOCALE_NAMES,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Dialog } from '../../frame/aria/dialog.tsx';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { type DataColumn, DataTable, dataColumns } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { ReasonForm } from '../../frame/form/reason-form.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useFocusOnProblem } from '../../frame/use-focus-on-problem.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { type App, useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  accountGroupsQuery,
  CARD_APPLICATION_APPROVAL_CODE_FIELDS,
  cardApplicationApprovalFormSchema,
  cardApplicationsQuery,
  useDecideCardApplication,
} from './accounts-queries.ts';

const col = dataColumns<CardApplication>();

/** The pill's look of each status (frame/status-pill.tsx's classes): to decide, done, refused. */
const STATUS_LOOK: Record<CardApplicationStatus, string> = {
  Pending: 'suspended',
  Approved: 'active',
  Declined: 'closed',
};

/** The applicant's name as they typed it. */
const applicantName = (a: Pick<CardApplication, 'firstName' | 'lastName'>) =>
  [a.firstName, a.lastName].filter(Boolean).join(' ');

function ApplicationStatus({ status }: { status: CardApplicationStatus }) {
  const { t } = useApp();
  return (
    <span className={`app-status app-status--${STATUS_LOOK[status]}`}>
      {t(`app.cardApplications.status.${status}`)}
    </span>
  );
}

/**
 * The list's columns: the applicant (names the row), e-mail, status, applied, and the Review button.
 * A page of a keyset list: the server's order (newest first), not sortable.
 */
function applicationColumns({
  t,
  format,
  onReview,
}: Pick<App, 't' | 'format'> & {
  onReview: (application: CardApplication) => void;
}): DataColumn<CardApplication>[] {
  return col.columns([
    col.accessor((a) => applicantName(a), {
      id: 'applicant',
      header: t('app.cardApplications.column.applicant'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: ({ row: { original: a } }) => <span id={`application-name-${a.id}`}>{applicantName(a)}</span>,
    }),
    col.accessor('email', { header: t('app.cardApplications.column.email') }),
    col.accessor('status', {
      header: t('app.cardApplications.column.status'),
      cell: ({ row: { original: a } }) => <ApplicationStatus status={a.status} />,
    }),
    col.accessor('appliedAt', {
      header: t('app.cardApplications.column.appliedAt'),
      cell: (cell) => format.dateTime(cell.getValue(), 'short'),
    }),
    col.display({
      id: 'actions',
      header: t('app.cardApplications.column.actions'),
      enableHiding: false,
      cell: ({ row: { original: a } }) => (
        <button
          type="button"
          id={`application-review-${a.id}`}
          className="app-button app-button--small"
          // "Review" names the action; the row's applicant tells which one.
          aria-describedby={`application-name-${a.id}`}
          onClick={() => onReview(a)}
        >
          {t('app.cardApplications.review')}
        </button>
      ),
    }),
  ]);
}

/** The status filter (all, or one status), kept in the URL: a new filter starts at the first page. */
function useStatusFilter() {
  const [params, setParams] = useSearchParams();
  const value = params.get('status') ?? '';
  const status = CARD_APPLICATION_STATUSES.find((s) => s === value);
  return {
    status,
    set: (next: string) => {
      const p = new URLSearchParams();
      if (next) p.set('status', next);
      setParams(p);
    },
  };
}

interface ApprovalValues {
  cardNumber: string;
  expiry: string;
  groupId: number | null;
  orgPoint: string | null;
}

/**
 * A company's new card account applications (issue 18 item 3, docs/self-registration.md): people apply
 * at the portal with the company's self-registration code; its administrators follow the applications
 * newest first (by status) and review each: approve it with the card the bank issued (the cardholder and
 * the card account are made) or decline it with a reason. A system administrator reads only (the
 * server's `canModify`).
 */
export function CardApplicationsScreen() {
  const { t, problemText, format } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.cardApplications.heading', number));
  const paging = useKeysetCursor();
  const filter = useStatusFilter();
  const position = { ...paging.cursor, status: filter.status };
  const list = useQuery({ ...cardApplicationsQuery(number, position), placeholderData: keepPreviousData });
  const page = list.data;
  const decide = useDecideCardApplication(number);
  const [done, setDone] = useState<{ kind: 'approved' | 'declined'; args: string[] } | undefined>();
  // The application under review: its row as the list now has it (read again after each change).
  const [reviewing, setReviewing] = useState<CardApplication | undefined>();
  const current = reviewing ? (page?.rows.find((a) => a.id === reviewing.id) ?? reviewing) : undefined;
  const [actionProblem, setActionProblem] = useState<string | undefined>();
  const problem = actionProblem ?? (list.isError ? problemOf(list.error) : undefined);
  const problemRef = useFocusOnProblem(problem);
  const columns = useMemo(
    () =>
      applicationColumns({
        t,
        format,
        onReview: (a) => {
          setActionProblem(undefined);
          setReviewing(a);
        },
      }),
    [t, format],
  );

  /**
   * A decision from the review: the dialog closes on its answer. Another administrator's decision
   * first closes it too (its facts are in the list again) and says so in the summary; any other
   * refusal stays at the form.
   */
  const decideWith = async (run: () => Promise<void>) => {
    setActionProblem(undefined);
    setDone(undefined);
    try {
      await run();
    } catch (error) {
      if (problemOf(error) !== 'cardApplication.decided') throw error;
      setReviewing(undefined);
      setActionProblem(problemOf(error));
    }
  };

  return (
    <>
      <h1>{t('app.cardApplications.heading', number)}</h1>
      <CompanyTabs number={number} />
      <p>{t('app.cardApplications.intro')}</p>
      <ErrorSummary
        id="applications-error"
        ref={problemRef}
        message={problem ? problemText(problem) : undefined}
      />
      <p role="status" id="applications-done" className="app-done">
        {done ? t(`app.cardApplications.${done.kind}`, ...done.args) : ''}
      </p>
      <section aria-labelledby="applications-heading">
        <h2 id="applications-heading">{t('app.cardApplications.link')}</h2>
        <p className="app-filter">
          <label htmlFor="applications-status">{t('app.cardApplications.filter.status')}</label>{' '}
          <select
            id="applications-status"
            value={filter.status ?? ''}
            onChange={(event) => filter.set(event.target.value)}
          >
            <option value="">{t('app.cardApplications.filter.all')}</option>
            {CARD_APPLICATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`app.cardApplications.status.${s}`)}
              </option>
            ))}
          </select>
        </p>
        <DataTable
          id="applications"
          caption={t('app.cardApplications.link')}
          columns={columns}
          data={page?.rows}
          getRowId={(a) => String(a.id)}
          loading={list.isFetching}
          empty={t('app.cardApplications.empty')}
          paging={page ? paging.pager('applications-paging', page) : undefined}
        />
      </section>
      {current ? (
        <ReviewDialog
          key={current.id}
          number={number}
          application={current}
          canModify={page?.canModify === true}
          onClose={() => setReviewing(undefined)}
          onApprove={(values) =>
            decideWith(async () => {
              const answer = await decide.mutateAsync({ kind: 'approve', id: current.id, ...values });
              setReviewing(undefined);
              setDone({ kind: 'approved', args: [answer.decision?.account?.maskedNumber ?? ''] });
            })
          }
          onDecline={(reason) =>
            decideWith(async () => {
              await decide.mutateAsync({ kind: 'decline', id: current.id, reason });
              setReviewing(undefined);
              setDone({ kind: 'declined', args: [] });
            })
          }
        />
      ) : null}
    </>
  );
}

/**
 * One application in a modal dialog (focus kept inside, Escape closes, focus back to its Review
 * button). Focus starts on the dialog itself, so its heading and the facts are read before any form:
 * what the applicant said and, once decided, the decision; for those who may decide a pending one, the
 * approve and decline forms.
 */
function ReviewDialog({
  number,
  application: a,
  canModify,
  onClose,
  onApprove,
  onDecline,
}: {
  number: string;
  application: CardApplication;
  canModify: boolean;
  onClose: () => void;
  onApprove: (values: ApprovalValues) => Promise<void>;
  onDecline: (reason: string) => Promise<void>;
}) {
  const { t, format } = useApp();
  const none = t('app.none');
  const deciding = canModify && a.status === 'Pending';
  const account = a.decision?.account;
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('app.cardApplications.detail.heading', applicantName(a))}
      id="application-dialog"
    >
      <dl className="app-facts" id="application-facts">
        <dt>{t('app.cardApplications.column.email')}</dt>
        <dd id="application-email">{a.email}</dd>
        <dt>{t('app.cardApplications.column.status')}</dt>
        <dd id="application-status">
          <ApplicationStatus status={a.status} />
        </dd>
        <dt>{t('app.cardApplications.column.appliedAt')}</dt>
        <dd>{format.dateTime(a.appliedAt, 'short')}</dd>
        <dt>{t('app.cardApplications.field.language')}</dt>
        <dd>{LOCALE_NAMES[a.locale] ?? a.locale}</dd>
        <dt>{t('app.cardApplications.field.reason')}</dt>
        <dd id="application-reason" className="app-pre">
          {a.reason || none}
        </dd>
        {a.decision ? (
          <>
            <dt>{t('app.cardApplications.field.decidedBy')}</dt>
            <dd id="application-decidedBy">
              {a.decision.by ?? none}
              <div className="app-hint">{format.dateTime(a.decision.at, 'short')}</div>
            </dd>
            {a.decision.reason ? (
              <>
                <dt>{t('app.cardApplications.field.declineReason')}</dt>
                <dd id="application-declineReason">{a.decision.reason}</dd>
              </>
            ) : null}
            {account ? (
              <>
                <dt>{t('app.cardApplications.field.account')}</dt>
                <dd id="application-account">
                  <Link
                    className="app-mono"
                    to={`/organisation/${encodeURIComponent(number)}/accounts/${account.id}`}
                  >
                    {account.maskedNumber}
                  </Link>
                </dd>
              </>
            ) : null}
          </>
        ) : null}
      </dl>
      {deciding ? (
        <>
          <ApproveForm number={number} onApprove={onApprove} />
          <ReasonForm
            heading={t('app.cardApplications.decline.heading')}
            label={t('app.cardApplications.decline.reason')}
            submit={t('app.cardApplications.decline.submit')}
            onSubmit={onDecline}
          />
        </>
      ) : null}
      <div className="app-actions">
        <button type="button" className="app-button" id="application-close" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </Dialog>
  );
}

/**
 * Approves an application with the card the bank issued: its number (never shown again in full) and
 * expiry, both required and checked as the server checks them, and where the cardholder sits: one of
 * the company's active account groups (or none) and an org point number (optional).
 */
function ApproveForm({
  number,
  onApprove,
}: {
  number: string;
  onApprove: (values: ApprovalValues) => Promise<void>;
}) {
  const { t } = useApp();
  const groups = useQuery(accountGroupsQuery(number));
  const form = useAppForm({
    schema: cardApplicationApprovalFormSchema,
    defaultValues: { cardNumber: '', expiry: '', groupId: '', orgPoint: '' },
    codeFields: CARD_APPLICATION_APPROVAL_CODE_FIELDS,
  });
  return (
    <section aria-labelledby="approve-heading">
      <h3 id="approve-heading">{t('app.cardApplications.approve.heading')}</h3>
      <AppForm
        form={form}
        id="approve-form"
        errorId="approve-error"
        summaryHeadingLevel={3}
        onSubmit={async (values) => {
          const orgPoint = values.orgPoint.trim();
          await onApprove({
            cardNumber: values.cardNumber.trim(),
            expiry: values.expiry.trim(),
            groupId: values.groupId ? Number(values.groupId) : null,
            orgPoint: orgPoint || null,
          });
        }}
      >
        <TextField
          control={form.control}
          name="cardNumber"
          id="approve-cardNumber"
          label={t('app.cardApplications.approve.cardNumber')}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          required
        />
        <TextField
          control={form.control}
          name="expiry"
          id="approve-expiry"
          label={t('app.cardApplications.approve.expiry')}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          required
        />
        <SelectField
          control={form.control}
          name="groupId"
          id="approve-group"
          label={t('app.cardApplications.approve.group')}
          placeholder={t('app.cardApplications.approve.noGroup')}
          options={(groups.data?.rows ?? [])
            .filter((g) => g.active)
            .map((g) => ({ value: String(g.id), label: g.name }))}
        />
        <TextField
          control={form.control}
          name="orgPoint"
          id="approve-orgPoint"
          label={t('app.cardApplications.approve.orgPoint')}
          autoComplete="off"
          spellCheck={false}
        />
        <div className="app-actions">
          <SubmitButton form={form} id="approve-submit">
            {t('app.cardApplications.approve.submit')}
          </SubmitButton>
        </div>
      </AppForm>
    </section>
  );
}
