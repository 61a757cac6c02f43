import {
  EXPENSE_REPORT_LIMITS,
  type ExpenseLine,
  type ExpenseReportDetail,
  reportNameProblem,
  reportNoteProblem,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import {
  deleteReport,
  getReport,
  receiptUrl,
  removeLine,
  removeReceipt,
  renameReport,
  reportAction,
  reroute,
  sendBack,
} from '../../api/expense-reports.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextAreaField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { CardLinesForm, LineForm, ReceiptForm } from './line-forms.tsx';
import { reportKeys } from './report-lists.tsx';

const col = dataColumns<ExpenseLine>();

type Done = 'saved' | 'lineRemoved' | 'receiptRemoved' | 'submitted' | 'approved' | 'sentBack' | 'rerouted';

/**
 * One expense report (issue 17 item 4): its facts, its lines with the policy's flags and receipts, and
 * what the caller may do now — the cardholder edits (card transactions as a field array, out-of-pocket
 * costs and journeys, receipts) and submits; an approver on its route approves or sends it back with a
 * reason; the company's administrator reroutes it. Every action's answer is the report as it now is.
 */
export function ExpenseReportScreen() {
  const { id: idText = '' } = useParams();
  const id = Number(idText);
  const { t, format, problemText, user } = useApp();
  const client = useQueryClient();
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: reportKeys.one(id),
    queryFn: ({ signal }) => getReport(id, signal),
    enabled: Number.isSafeInteger(id),
  });
  const report = query.data;
  usePageTitle(report?.name ?? t('app.expenses.reports.report'));
  const [done, setDone] = useState<Done | undefined>();
  const [editing, setEditing] = useState<ExpenseLine | undefined>();
  const [receiptFor, setReceiptFor] = useState<ExpenseLine | undefined>();
  const [removing, setRemoving] = useState<ExpenseLine | undefined>();
  const [deleting, setDeleting] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const show = (detail: ExpenseReportDetail, what: Done) => {
    client.setQueryData(reportKeys.one(id), detail);
    void client.invalidateQueries({ queryKey: reportKeys.all, predicate: (q) => q.queryKey[1] !== 'one' });
    setDone(what);
  };
  const action = useMutation({
    mutationFn: async (run: () => Promise<ExpenseReportDetail>) => run(),
  });
  const act = (run: () => Promise<ExpenseReportDetail>, what: Done) =>
    action.mutate(run, { onSuccess: (detail) => show(detail, what) });
  const remove = useMutation({
    mutationFn: () => deleteReport(id),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: reportKeys.all });
      navigate('/expense-reports');
    },
  });
  const problem = query.isError
    ? problemOf(query.error)
    : action.isError
      ? problemOf(action.error)
      : remove.isError
        ? problemOf(remove.error)
        : undefined;

  useEffect(() => {
    if (done === 'submitted' || done === 'approved' || done === 'sentBack') heading.current?.focus();
  }, [done]);

  const canEdit = report?.may.edit === true;
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('date', {
          header: t('app.expenses.lines.date'),
          cell: (c) => format.date(c.getValue()),
        }),
        col.accessor('description', {
          header: t('app.expenses.lines.description'),
          enableHiding: false,
          meta: { rowHeader: true },
        }),
        col.accessor((l) => l.type.name, { id: 'type', header: t('app.expenses.lines.type') }),
        col.accessor('kind', {
          header: t('app.expenses.lines.detail'),
          cell: ({ row: { original: l } }) =>
            l.transaction
              ? `${l.transaction.merchantName} · ${l.transaction.maskedNumber}`
              : l.mileage
                ? t(
                    'app.expenses.lines.journey',
                    format.number(l.mileage.odometerStart),
                    format.number(l.mileage.odometerEnd),
                    format.number(l.mileage.distance),
                    t(`app.expenses.mileage.units.${l.mileage.unit}`),
                  )
                : t('app.expenses.lines.kinds.cash'),
        }),
        col.accessor((l) => l.amount.minor, {
          id: 'amount',
          header: t('app.expenses.reports.total'),
          meta: { className: 'app-num' },
          cell: ({ row: { original: l } }) =>
            format.money(l.amount.minor, l.amount.currency, l.amount.exponent),
        }),
        col.accessor((l) => l.tax?.minor ?? '', {
          id: 'tax',
          header: t('app.expenses.lines.tax'),
          meta: { className: 'app-num' },
          cell: ({ row: { original: l } }) =>
            l.tax ? format.money(l.tax.minor, l.tax.currency, l.tax.exponent) : '',
        }),
        col.accessor((l) => l.receipt?.name ?? '', {
          id: 'receipt',
          header: t('app.expenses.lines.receipt'),
          cell: ({ row: { original: l } }) =>
            l.receipt ? (
              <a href={receiptUrl(id, l.id)} target="_blank" rel="noopener" id={`line-${l.id}-receipt`}>
                {t('app.expenses.lines.viewReceipt', l.receipt.name)}
              </a>
            ) : (
              t('app.expenses.lines.noReceipt')
            ),
        }),
        col.accessor((l) => l.flags.join(' '), {
          id: 'flags',
          header: t('app.expenses.lines.policy'),
          cell: ({ row: { original: l } }) =>
            l.flags.length === 0 ? (
              t('app.expenses.lines.withinPolicy')
            ) : (
              <span className="app-flag" id={`line-${l.id}-flags`}>
                {l.flags.map((f) => t(`app.expenses.lines.flags.${f}`)).join(', ')}
              </span>
            ),
        }),
      ]),
    [t, format, id],
  );
  const rowActions: RowActions<ExpenseLine> | undefined = canEdit
    ? {
        label: (l) => t('app.table.rowActions', l.description),
        actions: (l) => [
          { id: 'edit', label: t('app.expenses.action.edit'), onAction: () => setEditing(l) },
          { id: 'receipt', label: t('app.expenses.lines.attachReceipt'), onAction: () => setReceiptFor(l) },
          ...(l.receipt
            ? [
                {
                  id: 'remove-receipt',
                  label: t('app.expenses.lines.removeReceipt'),
                  onAction: () => act(() => removeReceipt(id, l.id), 'receiptRemoved'),
                },
              ]
            : []),
          {
            id: 'delete',
            label: t('app.expenses.lines.remove'),
            danger: true,
            onAction: () => setRemoving(l),
          },
        ],
      }
    : undefined;

  return (
    <>
      <h1 ref={heading} tabIndex={-1} id="report-heading">
        {report?.name ?? t('app.expenses.reports.report')}
      </h1>
      <p>
        <Link to={report && report.owner.userId === user.userId ? '/expense-reports' : '/expense-approvals'}>
          {t('app.expenses.reports.back')}
        </Link>
      </p>
      <ErrorSummary id="report-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="report-done" className="app-done">
        {done ? t(`app.expenses.reports.done.${done}`) : ''}
      </p>
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {report ? (
        <>
          <dl className="app-facts" id="report-facts">
            <dt>{t('app.expenses.reports.status')}</dt>
            <dd id="report-status">{t(`app.expenses.reports.statuses.${report.status}`)}</dd>
            <dt>{t('app.expenses.reports.cardholder')}</dt>
            <dd>{report.owner.name}</dd>
            <dt>{t('app.expenses.reports.total')}</dt>
            <dd id="report-total">
              {format.money(report.total.minor, report.total.currency, report.total.exponent)}
            </dd>
            <dt>{t('app.expenses.reports.flagged')}</dt>
            <dd>{format.number(report.flagged)}</dd>
            {report.submittedAt ? (
              <>
                <dt>{t('app.expenses.reports.submitted')}</dt>
                <dd>{format.dateTime(report.submittedAt, 'short')}</dd>
              </>
            ) : null}
            {report.pending ? (
              <>
                <dt>{t('app.expenses.reports.waitingFor')}</dt>
                <dd id="report-waiting">
                  {t(
                    'app.expenses.reports.waitingNames',
                    report.pending.approvers.map((a) => a.name).join(', '),
                    format.number(report.pending.needed),
                  )}
                </dd>
              </>
            ) : null}
          </dl>
          {report.unroutable ? (
            <p className="app-notice" id="report-unroutable">
              {t('app.expenses.reports.unroutable')}
            </p>
          ) : null}
          {canEdit && report.policy?.workflowInstructions ? (
            <section aria-labelledby="report-instructions-heading" className="app-instructions">
              <h2 id="report-instructions-heading">{t('app.expenses.reports.instructions')}</h2>
              <p className="app-preline">{report.policy.workflowInstructions}</p>
            </section>
          ) : null}
          <section aria-labelledby="report-lines-heading">
            <h2 id="report-lines-heading">{t('app.expenses.reports.linesHeading')}</h2>
            <DataTable
              id="report-lines"
              caption={t('app.expenses.reports.linesCaption', report.name)}
              columns={columns}
              data={report.lines}
              getRowId={(l) => String(l.id)}
              rowActions={rowActions}
              empty={t('app.expenses.reports.noLines')}
            />
          </section>
          {canEdit && receiptFor ? (
            <ReceiptForm
              report={report}
              line={receiptFor}
              onDone={(detail) => {
                setReceiptFor(undefined);
                show(detail, 'saved');
              }}
              onCancel={() => setReceiptFor(undefined)}
            />
          ) : null}
          {canEdit && editing ? (
            <section aria-labelledby="line-edit-heading">
              <h3 id="line-edit-heading">{t('app.expenses.lines.edit', editing.description)}</h3>
              <LineForm
                key={editing.id}
                report={report}
                editing={editing}
                onDone={(detail) => {
                  setEditing(undefined);
                  show(detail, 'saved');
                }}
                onCancel={() => setEditing(undefined)}
              />
            </section>
          ) : null}
          {canEdit ? (
            <>
              <CardLinesForm report={report} onDone={(detail) => show(detail, 'saved')} />
              <section aria-labelledby="line-new-heading">
                <h3 id="line-new-heading">{t('app.expenses.lines.addOther')}</h3>
                <LineForm report={report} onDone={(detail) => show(detail, 'saved')} />
              </section>
              <RenameForm report={report} onDone={(detail) => show(detail, 'saved')} />
            </>
          ) : null}
          <div className="app-actions">
            {report.may.submit ? (
              <button
                type="button"
                className="app-button app-button--primary"
                id="report-submit"
                disabled={action.isPending}
                onClick={() => act(() => reportAction(id, 'submit'), 'submitted')}
              >
                {t('app.expenses.reports.submit')}
              </button>
            ) : null}
            {report.may.approve ? (
              <button
                type="button"
                className="app-button app-button--primary"
                id="report-approve"
                disabled={action.isPending}
                onClick={() => act(() => reportAction(id, 'approve'), 'approved')}
              >
                {t('app.expenses.reports.approve')}
              </button>
            ) : null}
            {canEdit ? (
              <button
                type="button"
                className="app-button app-button--danger"
                id="report-delete"
                onClick={() => setDeleting(true)}
              >
                {t('app.expenses.reports.delete')}
              </button>
            ) : null}
          </div>
          {report.may.sendBack ? (
            <NoteForm
              idPrefix="report-send-back"
              heading={t('app.expenses.reports.sendBackHeading')}
              label={t('app.expenses.reports.reason')}
              submit={t('app.expenses.reports.sendBack')}
              onSubmit={async (note) => show(await sendBack(id, note), 'sentBack')}
            />
          ) : null}
          {report.may.reroute ? (
            <RerouteForm report={report} onDone={(detail) => show(detail, 'rerouted')} />
          ) : null}
          <section aria-labelledby="report-history-heading">
            <h2 id="report-history-heading">{t('app.expenses.reports.history')}</h2>
            {report.history.length === 0 ? (
              <p>{t('app.expenses.reports.noHistory')}</p>
            ) : (
              <ol id="report-history">
                {report.history.map((h) => (
                  <li key={`${h.at}-${h.action}`}>
                    {t(
                      `app.expenses.reports.events.${h.action}`,
                      format.dateTime(h.at, 'short'),
                      h.by?.name ?? t('app.expenses.reports.system'),
                      h.target?.name ?? '',
                    )}
                    {h.note ? ` — ${h.note}` : ''}
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      ) : null}
      <ConfirmDialog
        open={removing !== undefined}
        idPrefix="line-remove"
        title={t('app.expenses.lines.removeTitle')}
        body={t('app.expenses.lines.removeBody', removing?.description ?? '')}
        confirmLabel={t('app.expenses.lines.remove')}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => {
          const line = removing;
          setRemoving(undefined);
          if (line) act(() => removeLine(id, line.id), 'lineRemoved');
        }}
      />
      <ConfirmDialog
        open={deleting}
        idPrefix="report-delete"
        title={t('app.expenses.reports.deleteTitle')}
        body={t('app.expenses.reports.deleteBody', report?.name ?? '')}
        confirmLabel={t('app.expenses.reports.delete')}
        onCancel={() => setDeleting(false)}
        onConfirm={() => {
          setDeleting(false);
          remove.mutate();
        }}
      />
    </>
  );
}

const nameSchema = z.object({ name: z.string() }).superRefine((v, ctx) => {
  const problem = reportNameProblem(v.name);
  if (problem) ctx.addIssue({ code: 'custom', path: ['name'], message: problem });
});

function RenameForm({
  report,
  onDone,
}: {
  report: ExpenseReportDetail;
  onDone: (d: ExpenseReportDetail) => void;
}) {
  const { t } = useApp();
  const form = useAppForm({ schema: nameSchema, defaultValues: { name: report.name } });
  return (
    <section aria-labelledby="report-rename-heading">
      <h3 id="report-rename-heading">{t('app.expenses.reports.rename')}</h3>
      <AppForm
        form={form}
        id="report-rename-form"
        errorId="report-rename-error"
        inline
        onSubmit={async (v) => onDone(await renameReport(report.id, v.name.trim()))}
      >
        <TextField
          control={form.control}
          name="name"
          id="report-rename-name"
          label={t('app.expenses.reports.name')}
          required
        />
        <SubmitButton form={form} id="report-rename-submit">
          {t('app.expenses.lines.save')}
        </SubmitButton>
      </AppForm>
    </section>
  );
}

const noteSchema = (required: boolean) =>
  z.object({ note: z.string() }).superRefine((v, ctx) => {
    const problem = reportNoteProblem(v.note, required);
    if (problem) ctx.addIssue({ code: 'custom', path: ['note'], message: problem });
  });

/** Sending back: the reason is required (the cardholder reads it in the report and the mail). */
function NoteForm({
  idPrefix,
  heading,
  label,
  submit,
  onSubmit,
}: {
  idPrefix: string;
  heading: string;
  label: string;
  submit: string;
  onSubmit: (note: string) => Promise<void>;
}) {
  const form = useAppForm({ schema: noteSchema(true), defaultValues: { note: '' } });
  return (
    <section aria-labelledby={`${idPrefix}-heading`}>
      <h2 id={`${idPrefix}-heading`}>{heading}</h2>
      <AppForm
        form={form}
        id={`${idPrefix}-form`}
        errorId={`${idPrefix}-error`}
        requiredNote
        onSubmit={async (v) => {
          await onSubmit(v.note.trim());
          form.reset({ note: '' });
        }}
      >
        <TextAreaField
          control={form.control}
          name="note"
          id={`${idPrefix}-note`}
          label={label}
          maxLength={EXPENSE_REPORT_LIMITS.noteMaxLength}
          required
        />
        <SubmitButton form={form} id={`${idPrefix}-submit`}>
          {submit}
        </SubmitButton>
      </AppForm>
    </section>
  );
}

const rerouteSchema = z.object({ userId: z.string(), note: z.string() }).superRefine((v, ctx) => {
  if (v.userId.trim() === '')
    ctx.addIssue({ code: 'custom', path: ['userId'], message: 'expenseReport.reroute.approverRequired' });
  const problem = reportNoteProblem(v.note, false);
  if (problem) ctx.addIssue({ code: 'custom', path: ['note'], message: problem });
});

/** Rerouting to an individual approver, by user ID (seed 001 §4), with an optional note. */
function RerouteForm({
  report,
  onDone,
}: {
  report: ExpenseReportDetail;
  onDone: (d: ExpenseReportDetail) => void;
}) {
  const { t } = useApp();
  const form = useAppForm({ schema: rerouteSchema, defaultValues: { userId: '', note: '' } });
  return (
    <section aria-labelledby="report-reroute-heading">
      <h2 id="report-reroute-heading">{t('app.expenses.reports.rerouteHeading')}</h2>
      <p>{t('app.expenses.reports.rerouteIntro')}</p>
      <AppForm
        form={form}
        id="report-reroute-form"
        errorId="report-reroute-error"
        requiredNote
        onSubmit={async (v) => {
          onDone(await reroute(report.id, { userId: v.userId.trim(), note: v.note.trim() }));
          form.reset({ userId: '', note: '' });
        }}
      >
        <TextField
          control={form.control}
          name="userId"
          id="report-reroute-user"
          label={t('app.expenses.reports.approverUserId')}
          autoComplete="off"
          required
        />
        <TextAreaField
          control={form.control}
          name="note"
          id="report-reroute-note"
          label={t('app.expenses.reports.note')}
          maxLength={EXPENSE_REPORT_LIMITS.noteMaxLength}
        />
        <SubmitButton form={form} id="report-reroute-submit">
          {t('app.expenses.reports.reroute')}
        </SubmitButton>
      </AppForm>
    </section>
  );
}
