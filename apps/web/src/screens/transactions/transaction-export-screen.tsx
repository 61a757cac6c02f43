import {
  checkExportRange,
  TRANSACTION_EXPORT_FORMATS,
  TRANSACTION_EXPORT_MAX_DAYS,
  type TransactionExport,
} from '@cardportal/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { transactionExportFileUrl } from '../../api/transactions.ts';
import { DataTable, dataColumns } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { DateField } from '../../frame/form/date-field.tsx';
import { CheckboxField, RadioGroupField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useKeysetCursor } from '../../frame/use-keyset-cursor.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { exportsQuery, useCreateExport } from './transactions-queries.ts';

const col = dataColumns<TransactionExport>();

/** The export form: the range checked as the server checks it (at most 30 days), the company for an issuer's side. */
const exportSchema = z
  .object({
    company: z.string(),
    from: z.string(),
    to: z.string(),
    format: z.enum(TRANSACTION_EXPORT_FORMATS),
    again: z.boolean(),
  })
  .superRefine((value, ctx) => {
    for (const [field, problem] of Object.entries(checkExportRange(value.from, value.to)))
      ctx.addIssue({ code: 'custom', path: [field], message: problem });
  });

/**
 * The general-ledger export (issue 15 item 7): a company's approved transactions over at most 30 days
 * as CSV or Excel, marked exported, and the exports made so far — each file a download that reads the
 * same every time (the File Inbox of the reports issue will list them too).
 */
export function TransactionExportScreen() {
  const { t, tCount, format, user } = useApp();
  usePageTitle(t('app.transactions.export.heading'));
  const paging = useKeysetCursor();
  const list = useQuery({ ...exportsQuery(paging.cursor), placeholderData: keepPreviousData });
  const create = useCreateExport();
  const [made, setMade] = useState<TransactionExport | undefined>();
  const ownCompany = user.userType === 'C';
  const form = useAppForm({
    schema: exportSchema,
    defaultValues: { company: '', from: '', to: '', format: 'csv', again: false },
  });
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('createdAt', {
          header: t('app.transactions.export.created'),
          cell: (cell) => format.dateTime(cell.getValue(), 'short'),
        }),
        col.accessor('fileName', {
          header: t('app.transactions.export.file'),
          enableHiding: false,
          meta: { rowHeader: true },
          cell: ({ row: { original: row } }) => (
            <a href={transactionExportFileUrl(row.id)} download={row.fileName} id={`export-${row.id}-file`}>
              {row.fileName}
            </a>
          ),
        }),
        col.accessor((row) => `${row.companyName} (${row.companyNumber})`, {
          id: 'company',
          header: t('app.transactions.field.company'),
        }),
        col.accessor((row) => `${format.date(row.from)} – ${format.date(row.to)}`, {
          id: 'period',
          header: t('app.transactions.export.period'),
        }),
        col.accessor('transactions', {
          header: t('app.transactions.export.count'),
          meta: { className: 'app-num' },
          cell: (cell) => format.number(cell.getValue()),
        }),
        col.accessor('createdBy', {
          header: t('app.transactions.export.by'),
          cell: (cell) => cell.getValue() ?? '',
        }),
      ]),
    [t, format],
  );
  return (
    <>
      <h1>{t('app.transactions.export.heading')}</h1>
      <p>
        <Link to="/transactions">{t('app.transactions.view.back')}</Link>
      </p>
      <p>{t('app.transactions.export.intro', String(TRANSACTION_EXPORT_MAX_DAYS))}</p>
      <AppForm
        form={form}
        id="transactions-export-form"
        errorId="transactions-export-error"
        onSubmit={async (values) => {
          setMade(undefined);
          const answer = await create.mutateAsync({
            from: values.from,
            to: values.to,
            format: values.format,
            again: values.again,
            ...(values.company.trim() ? { company: values.company.trim() } : {}),
          });
          setMade(answer);
          paging.reset();
        }}
      >
        {ownCompany ? null : (
          <TextField
            control={form.control}
            name="company"
            id="transactions-export-company"
            label={t('app.transactions.export.company')}
            autoComplete="off"
          />
        )}
        <DateField
          control={form.control}
          name="from"
          id="transactions-export-from"
          label={t('app.transactions.filter.from')}
        />
        <DateField
          control={form.control}
          name="to"
          id="transactions-export-to"
          label={t('app.transactions.filter.to')}
        />
        <RadioGroupField
          control={form.control}
          name="format"
          id="transactions-export-format"
          label={t('app.transactions.export.format')}
          options={TRANSACTION_EXPORT_FORMATS.map((f) => ({
            value: f,
            label: t(`app.transactions.export.format.${f}`),
          }))}
        />
        <CheckboxField
          control={form.control}
          name="again"
          id="transactions-export-again"
          label={t('app.transactions.export.again')}
        />
        <SubmitButton form={form} id="transactions-export-submit">
          {t('app.transactions.export.submit')}
        </SubmitButton>
      </AppForm>
      <div aria-live="polite" className="app-live">
        {made ? (
          <p className="app-done" id="transactions-export-done">
            {tCount('app.transactions.export.done', made.transactions)}{' '}
            <a
              href={transactionExportFileUrl(made.id)}
              download={made.fileName}
              id="transactions-export-download"
            >
              {t('app.transactions.export.download', made.fileName)}
            </a>
          </p>
        ) : null}
      </div>
      <DataTable
        id="transactions-exports"
        caption={t('app.transactions.export.list')}
        columns={columns}
        data={list.data?.rows}
        getRowId={(row) => String(row.id)}
        loading={list.isFetching}
        empty={t('app.transactions.export.none')}
        paging={list.data ? paging.pager('transactions-exports-paging', list.data) : undefined}
      />
    </>
  );
}
