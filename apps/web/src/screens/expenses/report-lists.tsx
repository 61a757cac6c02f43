import {
  EXPENSE_REPORT_STATUSES,
  type ExpenseReportList,
  type ExpenseReportSummary,
  reportNameProblem,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { z } from 'zod';
import {
  approvalQueue,
  companyReports,
  createReport,
  type ListPosition,
  myReports,
} from '../../api/expense-reports.ts';
import { DataTable, dataColumns } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { ExpensePage, useExpenseSettings } from './expense-page.tsx';

/** Query keys of expense reports: a change to one invalidates every list and the report itself. */
export const reportKeys = {
  all: ['expense-reports'] as const,
  list: (which: string, p: ListPosition) => ['expense-reports', 'list', which, p] as const,
  one: (id: number) => ['expense-reports', 'one', id] as const,
  transactions: (p: ListPosition) => ['expense-reports', 'transactions', p] as const,
};

const col = dataColumns<ExpenseReportSummary>();

/** A page of reports: name (a link to the report), cardholder, status, lines, flagged, total, last change. */
function ReportTable({
  id,
  caption,
  page,
  loading,
  empty,
  showOwner,
  paging,
}: {
  id: string;
  caption: string;
  page: ExpenseReportList | undefined;
  loading: boolean;
  empty: string;
  showOwner: boolean;
  paging: ReturnType<typeof useKeysetCursor>;
}) {
  const { t, format } = useApp();
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('app.expenses.reports.name'),
          enableHiding: false,
          meta: { rowHeader: true },
          cell: ({ row: { original: r } }) => (
            <Link to={`/expense-reports/${r.id}`} id={`${id}-${r.id}-open`}>
              {r.name}
            </Link>
          ),
        }),
        ...(showOwner
          ? [
              col.accessor((r) => r.owner.name, {
                id: 'owner',
                header: t('app.expenses.reports.cardholder'),
              }),
            ]
          : []),
        col.accessor('status', {
          header: t('app.expenses.reports.status'),
          cell: (cell) => t(`app.expenses.reports.statuses.${cell.getValue()}`),
        }),
        col.accessor('lines', {
          header: t('app.expenses.reports.lines'),
          meta: { className: 'app-num' },
          cell: (cell) => format.number(cell.getValue()),
        }),
        col.accessor('flagged', {
          header: t('app.expenses.reports.flagged'),
          meta: { className: 'app-num' },
          cell: (cell) => format.number(cell.getValue()),
        }),
        col.accessor((r) => r.total.minor, {
          id: 'total',
          header: t('app.expenses.reports.total'),
          meta: { className: 'app-num' },
          cell: ({ row: { original: r } }) => format.money(r.total.minor, r.total.currency, r.total.exponent),
        }),
        col.accessor('updatedAt', {
          header: t('app.expenses.reports.updated'),
          cell: (cell) => format.dateTime(cell.getValue(), 'short'),
        }),
      ]),
    [t, format, id, showOwner],
  );
  return (
    <DataTable
      id={id}
      caption={caption}
      columns={columns}
      data={page?.rows}
      getRowId={(r) => String(r.id)}
      loading={loading}
      empty={empty}
      paging={page ? paging.pager(`${id}-paging`, page) : undefined}
    />
  );
}

/** The status filter of a list (all, or one status), kept in the URL. */
function useStatusFilter() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  return {
    status,
    set: (next: string) => {
      const p = new URLSearchParams();
      if (next) p.set('status', next);
      setParams(p);
    },
  };
}

function StatusFilter({ id, value, onChange }: { id: string; value: string; onChange: (v: string) => void }) {
  const { t } = useApp();
  return (
    <p className="app-filter">
      <label htmlFor={id}>{t('app.expenses.reports.status')}</label>{' '}
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('app.expenses.reports.allStatuses')}</option>
        {EXPENSE_REPORT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {t(`app.expenses.reports.statuses.${s}`)}
          </option>
        ))}
      </select>
    </p>
  );
}

const newReportSchema = z.object({ name: z.string(), currency: z.string() }).superRefine((v, ctx) => {
  const problem = reportNameProblem(v.name);
  if (problem) ctx.addIssue({ code: 'custom', path: ['name'], message: problem });
});

/**
 * A cardholder's expense reports (issue 17 item 4): the list, newest change first, with a status
 * filter, and the form that starts a new report (its currency is the company's policy's; a company
 * without a policy yet asks for one).
 */
export function MyExpenseReportsScreen() {
  const { t, problemText } = useApp();
  usePageTitle(t('app.expenses.reports.mine'));
  const navigate = useNavigate();
  const paging = useKeysetCursor();
  const filter = useStatusFilter();
  const position = { ...paging.cursor, status: filter.status || undefined };
  const list = useQuery({
    queryKey: reportKeys.list('mine', position),
    queryFn: ({ signal }) => myReports(position, signal),
    placeholderData: keepPreviousData,
  });
  const create = useMutation({ mutationFn: createReport });
  const form = useAppForm({ schema: newReportSchema, defaultValues: { name: '', currency: '' } });
  const problem = list.isError ? problemOf(list.error) : undefined;
  return (
    <>
      <h1>{t('app.expenses.reports.mine')}</h1>
      <p>{t('app.expenses.reports.mineIntro')}</p>
      <section aria-labelledby="report-new-heading">
        <h2 id="report-new-heading">{t('app.expenses.reports.new')}</h2>
        <AppForm
          form={form}
          id="report-new-form"
          errorId="report-new-error"
          requiredNote
          onSubmit={async (v) => {
            const made = await create.mutateAsync({
              name: v.name.trim(),
              ...(v.currency.trim() ? { currency: v.currency.trim() } : {}),
            });
            navigate(`/expense-reports/${made.id}`);
          }}
        >
          <TextField
            control={form.control}
            name="name"
            id="report-new-name"
            label={t('app.expenses.reports.name')}
            required
          />
          <TextField
            control={form.control}
            name="currency"
            id="report-new-currency"
            label={t('app.expenses.reports.currency')}
            hint={t('app.expenses.reports.currencyHint')}
            autoComplete="off"
            maxLength={3}
          />
          <SubmitButton form={form} id="report-new-submit">
            {t('app.expenses.reports.create')}
          </SubmitButton>
        </AppForm>
      </section>
      <section aria-labelledby="reports-heading">
        <h2 id="reports-heading">{t('app.expenses.reports.list')}</h2>
        <StatusFilter
          id="reports-status"
          value={filter.status}
          onChange={(v) => {
            filter.set(v);
          }}
        />
        <ErrorSummary id="reports-error" message={problem ? problemText(problem) : undefined} />
        <ReportTable
          id="reports"
          caption={t('app.expenses.reports.list')}
          page={list.data}
          loading={list.isFetching}
          empty={t('app.expenses.reports.none')}
          showOwner={false}
          paging={paging}
        />
      </section>
    </>
  );
}

/** The approver's queue: the reports waiting for the caller, the longest waiting first. */
export function ExpenseQueueScreen() {
  const { t, problemText } = useApp();
  usePageTitle(t('app.expenses.queue.heading'));
  const paging = useKeysetCursor();
  const list = useQuery({
    queryKey: reportKeys.list('queue', paging.cursor),
    queryFn: ({ signal }) => approvalQueue(paging.cursor, signal),
    placeholderData: keepPreviousData,
  });
  const problem = list.isError ? problemOf(list.error) : undefined;
  return (
    <>
      <h1>{t('app.expenses.queue.heading')}</h1>
      <p>{t('app.expenses.queue.intro')}</p>
      <ErrorSummary id="queue-error" message={problem ? problemText(problem) : undefined} />
      <ReportTable
        id="queue"
        caption={t('app.expenses.queue.heading')}
        page={list.data}
        loading={list.isFetching}
        empty={t('app.expenses.queue.none')}
        showOwner
        paging={paging}
      />
    </>
  );
}

/** A company's expense reports, for its administrators: every status, or one. */
export function CompanyExpenseReportsScreen() {
  const { number = '' } = useParams();
  const { t, problemText } = useApp();
  usePageTitle(t('app.expenses.reports.company'));
  const settings = useExpenseSettings(number);
  const paging = useKeysetCursor();
  const filter = useStatusFilter();
  const position = { ...paging.cursor, status: filter.status || undefined };
  const list = useQuery({
    queryKey: reportKeys.list(`company:${number}`, position),
    queryFn: ({ signal }) => companyReports(number, position, signal),
    placeholderData: keepPreviousData,
  });
  const problem = list.isError ? problemOf(list.error) : undefined;
  return (
    <ExpensePage
      number={number}
      idPrefix="company-reports"
      heading={t('app.expenses.reports.company')}
      intro={t('app.expenses.reports.companyIntro')}
      readOnly={false}
      problem={settings.isError ? problemOf(settings.error) : undefined}
    >
      <StatusFilter id="company-reports-status" value={filter.status} onChange={filter.set} />
      <ErrorSummary id="company-reports-list-error" message={problem ? problemText(problem) : undefined} />
      <ReportTable
        id="company-reports"
        caption={t('app.expenses.reports.company')}
        page={list.data}
        loading={list.isFetching}
        empty={t('app.expenses.reports.none')}
        showOwner
        paging={paging}
      />
    </ExpensePage>
  );
}
