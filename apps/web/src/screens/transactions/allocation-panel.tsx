import {
  type AllocationPart,
  allocateByPercent,
  type CodingCode,
  checkAllocationAmounts,
  decimalOfMinor,
  minorOfDecimal,
  type TransactionAllocation,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { type Control, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { ComboBoxField } from '../../frame/form/combo-box-field.tsx';
import { FieldArrayList } from '../../frame/form/field-array.tsx';
import { RadioGroupField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { allocationQuery, offeredValuesQuery, useSetAllocation } from './transactions-queries.ts';

/**
 * A transaction's coding and cost allocation (issue 16 item 3): the scheme of its card, each part (the
 * whole, or each split line) with its lines — amount, percent, a value per code — and the editor: lines
 * by percent or by amount (what is left to allocate shown as one types), each code chosen from what its
 * scheme line offers, the codes the caller's type may not change shown but fixed. The server decides.
 */

/** A code's form field name: `c{id}` (a number alone would make react-hook-form build an array). */
const fieldOf = (codeId: number) => `c${codeId}`;

interface LineForm {
  amount: string;
  percent: string;
  coding: Partial<Record<string, string | undefined>>;
}
interface AllocationForm {
  mode: 'percent' | 'amount';
  lines: LineForm[];
}

function allocationSchema(total: bigint, exponent: number) {
  return z
    .object({
      mode: z.enum(['percent', 'amount']),
      lines: z.array(
        z.object({
          amount: z.string(),
          percent: z.string(),
          coding: z.record(z.string(), z.string().optional()),
        }),
      ),
    })
    .superRefine((value, ctx) => {
      if (value.mode === 'percent') {
        const percents = value.lines.map((l) =>
          /^\d{1,3}$/.test(l.percent.trim()) ? Number(l.percent) : Number.NaN,
        );
        const result = allocateByPercent(total, percents);
        if ('problems' in result)
          for (const p of result.problems)
            ctx.addIssue({
              code: 'custom',
              path: p.index === undefined ? ['lines'] : ['lines', p.index, 'percent'],
              message: p.problem,
            });
        return;
      }
      const amounts: bigint[] = [];
      value.lines.forEach((line, index) => {
        const parsed = minorOfDecimal(line.amount, exponent);
        if ('problem' in parsed)
          ctx.addIssue({ code: 'custom', path: ['lines', index, 'amount'], message: parsed.problem });
        else amounts.push(parsed.minor);
      });
      if (amounts.length !== value.lines.length) return;
      for (const p of checkAllocationAmounts(total, amounts))
        ctx.addIssue({
          code: 'custom',
          path: p.index === undefined ? ['lines'] : ['lines', p.index, 'amount'],
          message: p.problem,
        });
    });
}

/** A list code's value on one line: type-ahead over what the scheme line offers (under its parent's value). */
function CodeValueField({
  control,
  txId,
  code,
  index,
  parentField,
  label,
}: {
  control: Control<AllocationForm>;
  txId: string;
  code: CodingCode;
  index: number;
  parentField: `lines.${number}.coding.${string}` | undefined;
  label: string;
}) {
  const name = `lines.${index}.coding.${fieldOf(code.id)}` as const;
  const current = (useWatch({ control, name }) as string | undefined) ?? '';
  const parent = useWatch({ control, name: parentField ?? 'mode' }) as string;
  // The line's whole list while it fits one answer (the combo box filters it as one types); a longer
  // one (more than 50 values) is asked for by what is typed.
  const [typed, setTyped] = useState('');
  const [long, setLong] = useState(false);
  const offered = useQuery({
    ...offeredValuesQuery(txId, {
      code: code.id,
      q: long ? typed.trim() || undefined : undefined,
      parent: parentField ? parent || undefined : undefined,
    }),
    placeholderData: keepPreviousData,
    enabled: code.mayEdit,
  });
  const more = offered.data?.more === true;
  useEffect(() => {
    if (more) setLong(true);
  }, [more]);
  // One array per answer: the combo box rebuilds its list when the array changes, and a list rebuilt on
  // every render (a hover re-renders) would drop the option under the pointer.
  const rows = offered.data?.rows;
  const options = useMemo(() => {
    const list = (rows ?? []).map((v) => ({
      id: v.value,
      label: v.description ? `${v.value} – ${v.description}` : v.value,
    }));
    if (current && !list.some((o) => o.id.toUpperCase() === current.toUpperCase()))
      list.unshift({ id: current, label: current });
    return list;
  }, [rows, current]);
  return (
    <ComboBoxField
      control={control}
      name={name}
      id={`allocation-${index}-${code.id}`}
      label={label}
      options={options}
      onInputChange={setTyped}
    />
  );
}

function AllocationEditor({
  txId,
  allocation,
  part,
  onDone,
  onCancel,
}: {
  txId: string;
  allocation: TransactionAllocation;
  part: AllocationPart;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t, format } = useApp();
  const total = BigInt(part.amount.minor);
  const exponent = part.amount.exponent;
  const save = useSetAllocation(txId);
  const codes = allocation.codes;
  const toForm = (line: AllocationPart['lines'][number]): LineForm => ({
    amount: decimalOfMinor(BigInt(line.amount.minor), exponent),
    percent: line.percent === null ? '' : String(line.percent),
    coding: Object.fromEntries(codes.map((c) => [fieldOf(c.id), line.coding[String(c.id)]?.value ?? ''])),
  });
  const byPercent = part.lines.every((l) => l.percent !== null);
  // Where the server's answers land: `lines.{i}.coding.{codeId}` → the field `lines.{i}.coding.c{codeId}`.
  const fieldAlias = Object.fromEntries(
    Array.from({ length: 100 }, (_, i) =>
      codes.map((c) => [`lines.${i}.coding.${c.id}`, `lines.${i}.coding.${fieldOf(c.id)}`] as const),
    ).flat(),
  ) as Record<string, `lines.${number}.coding.${string}`>;
  const form = useAppForm({
    schema: allocationSchema(total, exponent),
    defaultValues: {
      mode: byPercent ? 'percent' : 'amount',
      lines: part.lines.map(toForm),
    } as AllocationForm,
    fieldAlias,
  });
  const mode = useWatch({ control: form.control, name: 'mode' });
  const watched = (useWatch({ control: form.control, name: 'lines' }) ?? []) as LineForm[];
  const allocated =
    mode === 'percent'
      ? watched.reduce((sum, l) => sum + (Number.parseInt(l.percent, 10) || 0), 0)
      : watched.reduce((sum, l) => {
          const parsed = minorOfDecimal(l.amount ?? '', exponent);
          return 'minor' in parsed ? sum + parsed.minor : sum;
        }, 0n);
  const left =
    mode === 'percent'
      ? `${100 - Number(allocated)} %`
      : format.money((total - (allocated as bigint)).toString(), part.amount.currency, exponent);
  const newLine = (): LineForm => ({
    amount: '',
    percent: '',
    coding: Object.fromEntries(
      codes.map((c) => [fieldOf(c.id), part.lines[0]?.coding[String(c.id)]?.value ?? '']),
    ),
  });
  return (
    <AppForm
      form={form}
      id="allocation-form"
      errorId="allocation-form-error"
      onSubmit={async (values) => {
        await save.mutateAsync({
          splitLine: part.splitLine,
          mode: values.mode,
          lines: values.lines.map((l) => ({
            ...(values.mode === 'percent' ? { percent: Number(l.percent) } : { amount: l.amount.trim() }),
            coding: Object.fromEntries(
              codes
                .map((c) => [String(c.id), (l.coding[fieldOf(c.id)] ?? '').trim()] as const)
                .filter(([, v]) => v !== ''),
            ),
          })),
        });
        onDone();
      }}
    >
      <RadioGroupField
        control={form.control}
        name="mode"
        id="allocation-mode"
        label={t('app.transactions.allocation.mode')}
        options={[
          { value: 'percent', label: t('app.transactions.allocation.byPercent') },
          { value: 'amount', label: t('app.transactions.allocation.byAmount') },
        ]}
      />
      <FieldArrayList
        control={form.control}
        name="lines"
        idPrefix="allocation-line"
        legend={t('app.transactions.allocation.lines')}
        addLabel={t('app.transactions.allocation.add')}
        removeLabel={(index) => t('app.transactions.allocation.remove', String(index + 1))}
        newItem={newLine}
        min={1}
        max={100}
      >
        {(index) => (
          <div className="app-form app-form--inline">
            {mode === 'percent' ? (
              <TextField
                control={form.control}
                name={`lines.${index}.percent`}
                id={`allocation-${index}-percent`}
                label={t('app.transactions.allocation.linePercent', String(index + 1))}
                inputMode="numeric"
                autoComplete="off"
              />
            ) : (
              <TextField
                control={form.control}
                name={`lines.${index}.amount`}
                id={`allocation-${index}-amount`}
                label={t('app.transactions.allocation.lineAmount', String(index + 1))}
                inputMode="decimal"
                autoComplete="off"
              />
            )}
            {codes.map((code) => {
              const label = t('app.transactions.allocation.lineCode', code.name, String(index + 1));
              if (!code.mayEdit)
                return (
                  <TextField
                    key={code.id}
                    control={form.control}
                    name={`lines.${index}.coding.${fieldOf(code.id)}`}
                    id={`allocation-${index}-${code.id}`}
                    label={label}
                    hint={t('app.transactions.allocation.fixed')}
                    readOnly
                  />
                );
              if (code.kind === 'text')
                return (
                  <TextField
                    key={code.id}
                    control={form.control}
                    name={`lines.${index}.coding.${fieldOf(code.id)}`}
                    id={`allocation-${index}-${code.id}`}
                    label={label}
                    maxLength={code.maxLength}
                    autoComplete="off"
                  />
                );
              return (
                <CodeValueField
                  key={code.id}
                  control={form.control}
                  txId={txId}
                  code={code}
                  index={index}
                  label={label}
                  parentField={
                    code.dependsOn === null ? undefined : `lines.${index}.coding.${fieldOf(code.dependsOn)}`
                  }
                />
              );
            })}
          </div>
        )}
      </FieldArrayList>
      <p aria-live="polite" id="allocation-left">
        {t('app.transactions.allocation.left', left)}
      </p>
      <p className="app-actions">
        <SubmitButton form={form} id="allocation-save">
          {t('app.transactions.allocation.save')}
        </SubmitButton>
        <button type="button" className="app-button" id="allocation-cancel" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </p>
    </AppForm>
  );
}

export function AllocationPanel({ txId }: { txId: string }) {
  const { t, format, problemText } = useApp();
  const query = useQuery(allocationQuery(txId));
  const reset = useSetAllocation(txId);
  const [editing, setEditing] = useState<number | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const allocation = query.data;
  if (!allocation) return null;
  const failed = reset.isError ? problemOf(reset.error) : undefined;
  const editable = allocation.canEdit && allocation.codes.some((c) => c.mayEdit);
  return (
    <section aria-labelledby="allocation-heading" className="app-section" id="transaction-allocation">
      <h2 id="allocation-heading">{t('app.transactions.allocation.heading')}</h2>
      <ErrorSummary id="allocation-error" message={failed ? problemText(failed) : undefined} />
      <div aria-live="polite" className="app-live">
        {done ? (
          <p className="app-done" id="allocation-done">
            {done}
          </p>
        ) : null}
      </div>
      {allocation.scheme === null ? (
        <p id="allocation-no-scheme">{t('app.transactions.allocation.noScheme')}</p>
      ) : (
        <p id="allocation-scheme">{t('app.transactions.allocation.scheme', allocation.scheme.name)}</p>
      )}
      {allocation.blocked ? (
        <p className="app-hint" id="allocation-blocked">
          {problemText(allocation.blocked)}
        </p>
      ) : null}
      {allocation.scheme
        ? allocation.parts.map((part) => {
            const money = (minor: string) => format.money(minor, part.amount.currency, part.amount.exponent);
            const captionId = `allocation-caption-${part.splitLine}`;
            const caption =
              part.splitLine === 0
                ? t('app.transactions.allocation.caption', money(part.amount.minor))
                : t(
                    'app.transactions.allocation.captionLine',
                    String(part.splitLine),
                    money(part.amount.minor),
                  );
            if (editing === part.splitLine)
              return (
                <AllocationEditor
                  key={part.splitLine}
                  txId={txId}
                  allocation={allocation}
                  part={part}
                  onDone={() => {
                    setEditing(undefined);
                    setDone(t('app.transactions.allocation.saved'));
                  }}
                  onCancel={() => setEditing(undefined)}
                />
              );
            return (
              <div key={part.splitLine} className="app-allocation-part">
                <TableWrap captionId={captionId}>
                  <table className="app-table" id={`allocation-lines-${part.splitLine}`}>
                    <caption id={captionId}>
                      {caption}
                      {part.source === 'default' ? ` — ${t('app.transactions.allocation.byDefault')}` : ''}
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col" className="app-num">
                          {t('app.transactions.field.amount')}
                        </th>
                        <th scope="col" className="app-num">
                          {t('app.transactions.allocation.percent')}
                        </th>
                        {allocation.codes.map((c) => (
                          <th scope="col" key={c.id}>
                            {c.name}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {part.lines.map((line, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: a part's lines have no id but their place
                        <tr key={i}>
                          <td className="app-num">{money(line.amount.minor)}</td>
                          <td className="app-num">{line.percent === null ? '' : `${line.percent} %`}</td>
                          {allocation.codes.map((c) => {
                            const v = line.coding[String(c.id)];
                            return (
                              <td key={c.id}>
                                {v
                                  ? `${v.value}${v.description ? ` – ${v.description}` : ''}`
                                  : t('app.none')}
                              </td>
                            );
                          })}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableWrap>
                {editable && editing === undefined ? (
                  <p className="app-actions">
                    <button
                      type="button"
                      className="app-button"
                      id={`allocation-edit-${part.splitLine}`}
                      onClick={() => {
                        setDone(undefined);
                        setEditing(part.splitLine);
                      }}
                    >
                      {t('app.transactions.allocation.edit')}
                    </button>
                    {part.source === 'allocation' ? (
                      <button
                        type="button"
                        className="app-button"
                        id={`allocation-reset-${part.splitLine}`}
                        disabled={reset.isPending}
                        onClick={() =>
                          reset.mutate(
                            { splitLine: part.splitLine, mode: 'percent', lines: [] },
                            { onSuccess: () => setDone(t('app.transactions.allocation.resetDone')) },
                          )
                        }
                      >
                        {t('app.transactions.allocation.reset')}
                      </button>
                    ) : null}
                  </p>
                ) : null}
              </div>
            );
          })
        : null}
    </section>
  );
}
