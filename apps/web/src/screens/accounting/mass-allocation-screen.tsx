import { allocateByPercent, isIsoDate, type MassAllocation } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { listMassAllocations, massAllocate, undoMassAllocation } from '../../api/allocation.ts';
import { ApiError } from '../../api/client.ts';
import { CompanyTabs } from '../../frame/company-tabs.tsx';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { type DataColumn, DataTable, dataColumns, type RowActions } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { DateField } from '../../frame/form/date-field.tsx';
import { FieldArrayList } from '../../frame/form/field-array.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { AccountingNav } from './accounting-nav.tsx';
import { accountingCodesQuery } from './accounting-queries.ts';

/** A refused transaction, as the refusal names it. */
interface Refused {
  transactionId: number;
  reference: string;
  problem: string;
  code: string | null;
}

const codeField = (id: number) => `c${id}`;

const massFormSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    lines: z.array(z.object({ percent: z.string(), coding: z.record(z.string(), z.string().optional()) })),
  })
  .superRefine((v, ctx) => {
    if (!isIsoDate(v.from)) ctx.addIssue({ code: 'custom', path: ['from'], message: 'date.invalid' });
    if (!isIsoDate(v.to)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'date.invalid' });
    else if (isIsoDate(v.from) && v.from > v.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'dateRange.fromAfterTo' });
    const percents = v.lines.map((l) =>
      /^\d{1,3}$/.test(l.percent.trim()) ? Number(l.percent) : Number.NaN,
    );
    const checked = allocateByPercent(1_000_000n, percents);
    if ('problems' in checked)
      for (const p of checked.problems)
        ctx.addIssue({
          code: 'custom',
          path: p.index === undefined ? ['lines'] : ['lines', p.index, 'percent'],
          message: p.problem,
        });
  });

/**
 * Mass allocation (issue 16 item 3): the company's transactions of a date range — a month — coded alike
 * by percent in one change, all or nothing. A refusal lists the transactions that refused it and why
 * (locked, exported, split, a code their scheme does not take); nothing changes then. The latest mass
 * allocations can each be undone as a whole while none of their transactions has changed since.
 */
export function MassAllocationScreen() {
  const { t, tCount, problemText, format } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.accounting.mass.heading', number));
  const client = useQueryClient();
  const codes = useQuery(accountingCodesQuery(number)).data?.rows.filter((c) => c.active) ?? [];
  const history = useQuery({
    queryKey: ['accounting', number, 'mass'],
    queryFn: ({ signal }) => listMassAllocations(number, signal),
  });
  const [refused, setRefused] = useState<{ rows: Refused[]; total: number } | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [undoing, setUndoing] = useState<MassAllocation | undefined>();
  const refresh = () => client.invalidateQueries({ queryKey: ['accounting', number] });
  const run = useMutation({ mutationFn: massAllocate, onSuccess: refresh });
  const undo = useMutation({ mutationFn: undoMassAllocation, onSuccess: refresh });
  const empty = { percent: '100', coding: {} as Record<string, string> };
  const form = useAppForm({ schema: massFormSchema, defaultValues: { from: '', to: '', lines: [empty] } });
  const undoFailed = undo.isError ? problemOf(undo.error) : undefined;

  const columns = useMemo((): DataColumn<MassAllocation>[] => {
    const col = dataColumns<MassAllocation>();
    return col.columns([
      col.accessor('at', {
        header: t('app.accounting.mass.at'),
        enableHiding: false,
        meta: { rowHeader: true },
        cell: (cell) => format.dateTime(cell.getValue()),
      }),
      col.accessor('by', { header: t('app.accounting.mass.by') }),
      col.accessor('transactions', {
        header: t('app.accounting.mass.transactions'),
        meta: { className: 'app-num' },
      }),
      col.accessor((m) => m.coding.map((l) => `${l.percent} %`).join(' / '), {
        id: 'coding',
        header: t('app.accounting.mass.coding'),
        cell: ({ row: { original: m } }) => (
          <ul className="app-plain-list">
            {m.coding.map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one allocation, in order
              <li key={i}>
                {`${l.percent} %: ${Object.entries(l.coding)
                  .map(([code, value]) => `${code} ${value}`)
                  .join(', ')}`}
              </li>
            ))}
          </ul>
        ),
      }),
      col.accessor((m) => m.undoneAt ?? '', {
        id: 'undone',
        header: t('app.accounting.mass.undone'),
        cell: ({ row: { original: m } }) => (m.undoneAt ? format.dateTime(m.undoneAt) : t('app.none')),
      }),
    ]);
  }, [t, format]);

  const rowActions: RowActions<MassAllocation> = {
    label: (m) => t('app.table.rowActions', format.dateTime(m.at)),
    actions: (m) =>
      m.undoneAt
        ? []
        : [{ id: 'undo', label: t('app.accounting.mass.undo'), danger: true, onAction: () => setUndoing(m) }],
  };

  return (
    <>
      <h1>{t('app.accounting.mass.heading', number)}</h1>
      <CompanyTabs number={number} />
      <AccountingNav number={number} />
      <p>{t('app.accounting.mass.intro')}</p>
      <ErrorSummary id="mass-error" message={undoFailed ? problemText(undoFailed) : undefined} />
      <div aria-live="polite" className="app-live">
        {done ? (
          <p className="app-done" id="mass-done">
            {done}
          </p>
        ) : null}
      </div>
      <section aria-labelledby="mass-form-heading">
        <h2 id="mass-form-heading">{t('app.accounting.mass.formHeading')}</h2>
        <AppForm
          form={form}
          id="mass-form"
          errorId="mass-form-error"
          onSubmit={async (values) => {
            setDone(undefined);
            setRefused(undefined);
            try {
              const batch = await run.mutateAsync({
                company: number,
                from: values.from,
                to: values.to,
                lines: values.lines.map((l) => ({
                  percent: Number(l.percent),
                  coding: Object.fromEntries(
                    codes
                      .map((c) => [String(c.id), (l.coding[codeField(c.id)] ?? '').trim()] as const)
                      .filter(([, v]) => v !== ''),
                  ),
                })),
              });
              setDone(
                batch.skipped > 0
                  ? `${tCount('app.accounting.mass.done', batch.transactions)} ${tCount('app.accounting.mass.skipped', batch.skipped)}`
                  : tCount('app.accounting.mass.done', batch.transactions),
              );
            } catch (error) {
              const problems = error instanceof ApiError ? error.body?.problems : undefined;
              if (Array.isArray(problems))
                setRefused({
                  rows: problems as Refused[],
                  total: Number(error instanceof ApiError ? error.body?.total : 0),
                });
              throw error;
            }
          }}
        >
          <DateField
            control={form.control}
            name="from"
            id="mass-from"
            label={t('app.accounting.mass.from')}
            required
          />
          <DateField
            control={form.control}
            name="to"
            id="mass-to"
            label={t('app.accounting.mass.to')}
            required
          />
          <FieldArrayList
            control={form.control}
            name="lines"
            idPrefix="mass-line"
            legend={t('app.accounting.mass.lines')}
            addLabel={t('app.accounting.mass.add')}
            removeLabel={(index) => t('app.accounting.mass.remove', String(index + 1))}
            newItem={() => ({ percent: '', coding: {} })}
            min={1}
            max={100}
          >
            {(index) => (
              <div className="app-form app-form--inline">
                <TextField
                  control={form.control}
                  name={`lines.${index}.percent`}
                  id={`mass-${index}-percent`}
                  label={t('app.accounting.mass.linePercent', String(index + 1))}
                  inputMode="numeric"
                  autoComplete="off"
                />
                {codes.map((code) => (
                  <TextField
                    key={code.id}
                    control={form.control}
                    name={`lines.${index}.coding.${codeField(code.id)}`}
                    id={`mass-${index}-${code.id}`}
                    label={t('app.accounting.mass.lineCode', code.name, String(index + 1))}
                    autoComplete="off"
                    spellCheck={false}
                  />
                ))}
              </div>
            )}
          </FieldArrayList>
          <p className="app-actions">
            <SubmitButton form={form} id="mass-submit">
              {t('app.accounting.mass.submit')}
            </SubmitButton>
          </p>
        </AppForm>
      </section>
      {refused ? (
        <section aria-labelledby="mass-refused-heading" id="mass-refused">
          <h2 id="mass-refused-heading">{tCount('app.accounting.mass.refused', refused.total)}</h2>
          <TableWrap captionId="mass-refused-caption">
            <table className="app-table" id="mass-refused-rows">
              <caption id="mass-refused-caption">{t('app.accounting.mass.refusedCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.accounting.mass.reference')}</th>
                  <th scope="col">{t('app.accounting.mass.problem')}</th>
                </tr>
              </thead>
              <tbody>
                {refused.rows.map((row) => (
                  <tr key={`${row.transactionId}-${row.problem}`}>
                    <th scope="row">{row.reference || String(row.transactionId)}</th>
                    <td>
                      {row.code ? `${row.code}: ${problemText(row.problem)}` : problemText(row.problem)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </section>
      ) : null}
      {history.data ? (
        <section aria-labelledby="mass-history-heading">
          <h2 id="mass-history-heading">{t('app.accounting.mass.history')}</h2>
          <DataTable
            id="mass-history"
            caption={t('app.accounting.mass.history')}
            columns={columns}
            data={history.data.rows}
            getRowId={(m) => String(m.id)}
            rowActions={rowActions}
            empty={t('app.accounting.mass.none')}
          />
        </section>
      ) : null}
      <ConfirmDialog
        open={undoing !== undefined}
        title={undoing ? t('app.accounting.mass.undoTitle', format.dateTime(undoing.at)) : ''}
        body={t('app.accounting.mass.undoBody')}
        confirmLabel={t('app.accounting.mass.undo')}
        onCancel={() => setUndoing(undefined)}
        onConfirm={() => {
          const batch = undoing;
          setUndoing(undefined);
          setDone(undefined);
          if (batch)
            undo.mutate(batch.id, {
              onSuccess: (answer) => setDone(tCount('app.accounting.mass.undoneDone', answer.transactions)),
            });
        }}
      />
    </>
  );
}
