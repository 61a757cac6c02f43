import {
  type ApprovalProfile,
  type ApprovalThreshold,
  amountTextProblem,
  approvalPercentageProblem,
  decimalOfMinor,
  EXPENSE_LIMITS,
  expenseNameProblem,
  splitCodeList,
} from '@cardportal/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { createApprovalThreshold, saveExpenseRecord } from '../../api/expenses.ts';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { ActivePill } from '../../frame/status-pill.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { ExpensePage, expenseKeys, useExpenseSettings } from './expense-page.tsx';
import { FormActions, RecordsSection } from './records-section.tsx';

const profileSchema = z
  .object({
    name: z.string(),
    limit: z.string(),
    currency: z.string(),
    approvalPercentage: z.string(),
    approvers: z.string(),
    active: z.boolean(),
  })
  .superRefine((v, ctx) => {
    const add = (path: string, message: string | undefined) => {
      if (message) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    add('name', expenseNameProblem('approvalProfile', v.name));
    // Seed 001 §8: "Approval limit is required".
    add('limit', amountTextProblem(v.limit, 'approvalProfile.limit.required'));
    if (!/^[A-Za-z]{3}$/.test(v.currency.trim())) add('currency', 'approvalProfile.currency.invalid');
    add(
      'approvalPercentage',
      approvalPercentageProblem(
        /^\d{1,3}$/.test(v.approvalPercentage.trim()) ? Number(v.approvalPercentage) : Number.NaN,
      ),
    );
    if (splitCodeList(v.approvers).length > EXPENSE_LIMITS.profileMembersMax)
      add('approvers', 'approvalProfile.approvers.tooMany');
  });
type ProfileForm = z.infer<typeof profileSchema>;

type EditorProps<T> = {
  number: string;
  editing?: T | undefined;
  onDone: () => void;
  onCancel?: (() => void) | undefined;
};

/** An approval profile's form: name, approval limit and its currency, approval percentage, approvers. */
function ProfileEditor({ number, editing, onDone, onCancel }: EditorProps<ApprovalProfile>) {
  const { t } = useApp();
  const client = useQueryClient();
  const empty: ProfileForm = {
    name: '',
    limit: '',
    currency: 'EUR',
    approvalPercentage: '100',
    approvers: '',
    active: true,
  };
  const save = useMutation({
    mutationFn: (v: ProfileForm) =>
      saveExpenseRecord(number, 'approval-profiles', editing?.id, {
        name: v.name.trim(),
        limit: v.limit.trim(),
        currency: v.currency.trim().toUpperCase(),
        approvalPercentage: Number(v.approvalPercentage),
        approvers: splitCodeList(v.approvers),
        active: v.active,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: expenseKeys.company(number) }),
  });
  const form = useAppForm({
    schema: profileSchema,
    defaultValues: editing
      ? {
          name: editing.name,
          limit: decimalOfMinor(editing.limit.minor, editing.limit.exponent),
          currency: editing.limit.currency,
          approvalPercentage: String(editing.approvalPercentage),
          approvers: editing.approvers.map((a) => a.userId).join('\n'),
          active: editing.active,
        }
      : empty,
    codeFields: { 'approvalProfile.name.duplicate': 'name' },
  });
  const prefix = editing ? 'profile-edit' : 'profile-create';
  return (
    <AppForm
      form={form}
      id={`${prefix}-form`}
      errorId={`${prefix}-error`}
      requiredNote
      onSubmit={async (values) => {
        await save.mutateAsync(values);
        if (!editing) form.reset(empty);
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="name"
        id={`${prefix}-name`}
        label={t('app.expenses.name')}
        required
      />
      <TextField
        control={form.control}
        name="limit"
        id={`${prefix}-limit`}
        label={t('app.expenses.approvals.limit')}
        hint={t('app.expenses.approvals.limitHint')}
        inputMode="decimal"
        required
      />
      <TextField
        control={form.control}
        name="currency"
        id={`${prefix}-currency`}
        label={t('app.expenses.currency')}
        hint={t('app.expenses.currencyHint')}
        required
      />
      <TextField
        control={form.control}
        name="approvalPercentage"
        id={`${prefix}-percentage`}
        label={t('app.expenses.approvals.percentage')}
        hint={t('app.expenses.approvals.percentageHint')}
        inputMode="numeric"
        required
      />
      <TextAreaField
        control={form.control}
        name="approvers"
        id={`${prefix}-approvers`}
        label={t('app.expenses.approvals.approvers')}
        hint={t('app.expenses.approvals.approversHint')}
        rows={4}
      />
      {editing ? (
        <CheckboxField
          control={form.control}
          name="active"
          id={`${prefix}-active`}
          label={t('app.expenses.active')}
        />
      ) : null}
      <FormActions
        prefix={prefix}
        editing={editing !== undefined}
        createLabel={t('app.expenses.approvals.create')}
        onCancel={onCancel}
      >
        {(label) => (
          <SubmitButton form={form} id={`${prefix}-submit`}>
            {label}
          </SubmitButton>
        )}
      </FormActions>
    </AppForm>
  );
}

const thresholdSchema = z
  .object({ amount: z.string(), currency: z.string(), profileId: z.string() })
  .superRefine((v, ctx) => {
    const amount = amountTextProblem(v.amount, 'money.amount.format');
    if (amount) ctx.addIssue({ code: 'custom', path: ['amount'], message: amount });
    if (!/^[A-Za-z]{3}$/.test(v.currency.trim()))
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'approvalThreshold.currency.invalid' });
    if (v.profileId === '')
      ctx.addIssue({ code: 'custom', path: ['profileId'], message: 'approvalThreshold.profile.unknown' });
  });
type ThresholdForm = z.infer<typeof thresholdSchema>;

/** A new threshold: reports above the amount need a step approved by the chosen profile. */
function ThresholdEditor({
  number,
  profiles,
  onDone,
}: {
  number: string;
  profiles: ApprovalProfile[];
  onDone: () => void;
}) {
  const { t } = useApp();
  const client = useQueryClient();
  const empty: ThresholdForm = { amount: '', currency: 'EUR', profileId: String(profiles[0]?.id ?? '') };
  const save = useMutation({
    mutationFn: (v: ThresholdForm) =>
      createApprovalThreshold(number, {
        amount: v.amount.trim(),
        currency: v.currency.trim().toUpperCase(),
        profileId: Number(v.profileId),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: expenseKeys.company(number) }),
  });
  const form = useAppForm({
    schema: thresholdSchema,
    defaultValues: empty,
    codeFields: { 'approvalThreshold.amount.duplicate': 'amount' },
  });
  return (
    <AppForm
      form={form}
      id="threshold-create-form"
      errorId="threshold-create-error"
      requiredNote
      onSubmit={async (values) => {
        await save.mutateAsync(values);
        form.reset(empty);
        onDone();
      }}
    >
      <TextField
        control={form.control}
        name="amount"
        id="threshold-create-amount"
        label={t('app.expenses.thresholds.amount')}
        inputMode="decimal"
        required
      />
      <TextField
        control={form.control}
        name="currency"
        id="threshold-create-currency"
        label={t('app.expenses.currency')}
        hint={t('app.expenses.currencyHint')}
        required
      />
      <SelectField
        control={form.control}
        name="profileId"
        id="threshold-create-profile"
        label={t('app.expenses.thresholds.profile')}
        options={profiles.map((p) => ({ value: String(p.id), label: p.name }))}
      />
      <div className="app-actions">
        <SubmitButton form={form} id="threshold-create-submit">
          {t('app.expenses.thresholds.create')}
        </SubmitButton>
      </div>
    </AppForm>
  );
}

/**
 * A company's approval profiles (a required approval limit, the share of its approvers who must approve,
 * its approvers) and thresholds (reports above an amount need a profile's approval), issue 17 item 1.
 */
export function ExpenseApprovalsScreen() {
  const { t, format } = useApp();
  const { number = '' } = useParams();
  usePageTitle(t('app.expenses.approvals.heading', number));
  const query = useExpenseSettings(number);
  const settings = query.data;

  const profileColumns = useMemo((): DataColumn<ApprovalProfile>[] => {
    const col = dataColumns<ApprovalProfile>();
    return col.columns([
      col.accessor('name', {
        header: t('app.expenses.name'),
        enableHiding: false,
        meta: { rowHeader: true },
      }),
      col.accessor((p) => Number(p.limit.minor), {
        id: 'limit',
        header: t('app.expenses.approvals.limit'),
        cell: ({ row: { original: p } }) => format.money(p.limit.minor, p.limit.currency, p.limit.exponent),
      }),
      col.accessor('approvalPercentage', {
        header: t('app.expenses.approvals.percentage'),
        cell: ({ row }) => `${format.number(row.original.approvalPercentage)} %`,
      }),
      col.accessor((p) => p.approvers.length, {
        id: 'approvers',
        header: t('app.expenses.approvals.approvers'),
        cell: ({ row }) =>
          row.original.approvers.map((a) => a.name || a.userId).join(', ') || t('app.expenses.none'),
      }),
      col.accessor((p) => (p.active ? 1 : 0), {
        id: 'status',
        header: t('app.people.field.status'),
        cell: ({ row }) => <ActivePill active={row.original.active} />,
      }),
    ]);
  }, [t, format]);

  const thresholdColumns = useMemo((): DataColumn<ApprovalThreshold>[] => {
    const col = dataColumns<ApprovalThreshold>();
    return col.columns([
      col.accessor((x) => Number(x.amount.minor), {
        id: 'amount',
        header: t('app.expenses.thresholds.amount'),
        enableHiding: false,
        meta: { rowHeader: true },
        cell: ({ row: { original: x } }) =>
          format.money(x.amount.minor, x.amount.currency, x.amount.exponent),
      }),
      col.accessor('profileName', { header: t('app.expenses.thresholds.profile') }),
    ]);
  }, [t, format]);

  return (
    <ExpensePage
      number={number}
      idPrefix="approvals"
      heading={t('app.expenses.approvals.heading', number)}
      intro={t('app.expenses.approvals.intro')}
      readOnly={settings?.readOnly === true}
      problem={query.isError ? problemOf(query.error) : undefined}
    >
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {settings ? (
        <>
          <RecordsSection
            number={number}
            part="approval-profiles"
            idPrefix="approval-profiles"
            heading={t('app.expenses.approvals.profiles')}
            caption={t('app.expenses.approvals.profiles')}
            columns={profileColumns}
            rows={settings.approvalProfiles}
            canModify={settings.canModify}
            remaining={EXPENSE_LIMITS.approvalProfilesPerCompany - settings.approvalProfiles.length}
            nameOf={(p) => p.name}
            emptyText={t('app.expenses.approvals.empty')}
            createHeading={t('app.expenses.approvals.createHeading')}
            fullText={t('app.expenses.approvals.full')}
            editor={(props) => <ProfileEditor number={number} {...props} />}
          />
          <RecordsSection
            number={number}
            part="approval-thresholds"
            idPrefix="approval-thresholds"
            heading={t('app.expenses.thresholds.heading')}
            caption={t('app.expenses.thresholds.heading')}
            columns={thresholdColumns}
            rows={settings.thresholds}
            canModify={settings.canModify && settings.approvalProfiles.length > 0}
            remaining={EXPENSE_LIMITS.approvalThresholdsPerCompany - settings.thresholds.length}
            nameOf={(x) => format.money(x.amount.minor, x.amount.currency, x.amount.exponent)}
            emptyText={t('app.expenses.thresholds.empty')}
            createHeading={t('app.expenses.thresholds.createHeading')}
            fullText={t('app.expenses.thresholds.full')}
            editable={false}
            editor={({ onDone }) => (
              <ThresholdEditor number={number} profiles={settings.approvalProfiles} onDone={onDone} />
            )}
          />
        </>
      ) : null}
    </ExpensePage>
  );
}
