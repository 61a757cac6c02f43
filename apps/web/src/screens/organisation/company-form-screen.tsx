import type { CompanySummary } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { CheckboxField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import {
  COMPANY_CODE_FIELDS,
  type CompanyFormValues,
  companyFormSchema,
  companyQuery,
  useCreateCompany,
  useUpdateCompany,
} from './organisation-queries.ts';

/** Create a company, or edit one (`/organisation/:number/edit`): names, group, multi-user on. */
export function CompanyFormScreen({ mode }: { mode: 'create' | 'edit' }) {
  const { t, problemText } = useApp();
  const { number = '' } = useParams();
  const read = useQuery({ ...companyQuery(number), enabled: mode === 'edit' });
  const detail = mode === 'edit' ? read.data : undefined;
  const problem = mode === 'edit' && read.isError ? problemOf(read.error) : undefined;
  const heading = mode === 'create' ? t('app.org.create.heading') : t('app.org.edit.heading', number);
  usePageTitle(heading);

  return (
    <>
      <h1>{heading}</h1>
      <ErrorSummary id="company-load-error" message={problem ? problemText(problem) : undefined} />
      {mode === 'create' ? <CompanyForm mode="create" /> : null}
      {mode === 'edit' && detail ? <CompanyForm mode="edit" detail={detail} /> : null}
      {mode === 'edit' && !detail && !problem ? <p>{t('common.loading')}</p> : null}
    </>
  );
}

type TextFieldName = Exclude<keyof CompanyFormValues, 'multiUser'>;

function CompanyForm({ mode, detail }: { mode: 'create' | 'edit'; detail?: CompanySummary }) {
  const { t } = useApp();
  const navigate = useNavigate();
  const create = useCreateCompany();
  const update = useUpdateCompany();
  const [confirming, setConfirming] = useState(false);
  const schema = useMemo(() => companyFormSchema(mode), [mode]);
  const form = useAppForm({
    schema,
    codeFields: COMPANY_CODE_FIELDS,
    defaultValues: {
      issuerNumber: detail?.issuerNumber ?? '',
      number: detail?.number ?? '',
      name1: detail?.name1 ?? '',
      name2: detail?.name2 ?? '',
      groupName: detail?.groupName ?? '',
      multiUser: detail?.multiUser ?? false,
    },
  });
  const alreadyOn = detail?.multiUser === true;
  const turningOn = (values: CompanyFormValues) => values.multiUser === true && !alreadyOn;

  const save = async (v: CompanyFormValues) => {
    if (mode === 'create') {
      const created = await create.mutateAsync({
        issuerNumber: v.issuerNumber.trim(),
        number: v.number.trim(),
        name1: v.name1.trim(),
        name2: v.name2.trim(),
        groupName: v.groupName.trim(),
        multiUser: v.multiUser === true,
      });
      navigate(`/organisation/${encodeURIComponent(created.number)}`, { state: { done: 'created' } });
    } else if (detail) {
      const saved = await update.mutateAsync({
        number: detail.number,
        body: {
          name1: v.name1.trim(),
          name2: v.name2.trim(),
          groupName: v.groupName.trim(),
          ...(turningOn(v) ? { multiUser: true } : {}),
        },
      });
      navigate(`/organisation/${encodeURIComponent(saved.number)}`, { state: { done: 'saved' } });
    }
  };

  // Checked first; turning multi-user on asks for confirmation, which submits again.
  const submit = async (values: CompanyFormValues) => {
    if (turningOn(values)) setConfirming(true);
    else await save(values);
  };

  const visible: TextFieldName[] =
    mode === 'create'
      ? ['issuerNumber', 'number', 'name1', 'name2', 'groupName']
      : ['name1', 'name2', 'groupName'];
  const fields = Object.fromEntries(
    [...visible, 'multiUser' as const].map((name) => [
      name,
      { id: `company-${name}`, label: t(`app.org.field.${name}`) },
    ]),
  );

  return (
    <AppForm
      form={form}
      onSubmit={submit}
      id="company-form"
      errorId="company-form-errors"
      fields={fields}
      requiredNote
    >
      {visible.map((name) => (
        <TextField
          key={name}
          control={form.control}
          name={name}
          id={`company-${name}`}
          label={t(`app.org.field.${name}`)}
          autoComplete="off"
          inputMode={name === 'issuerNumber' || name === 'number' ? 'numeric' : undefined}
          required={name === 'issuerNumber' || name === 'number' || name === 'name1'}
        />
      ))}
      <CheckboxField
        control={form.control}
        name="multiUser"
        id="company-multiUser"
        label={t('app.org.field.multiUser')}
        hint={t('app.org.multiUser.hint')}
        disabled={alreadyOn}
      />
      <div className="app-actions">
        <SubmitButton form={form} id="company-save">
          {t('app.people.form.save')}
        </SubmitButton>
        <Link
          className="app-button"
          to={detail ? `/organisation/${encodeURIComponent(detail.number)}` : '/organisation'}
        >
          {t('common.cancel')}
        </Link>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('app.org.confirm.multiUser')}
        body={t('app.org.confirm.multiUserBody')}
        confirmLabel={t('app.org.action.multiUserOn')}
        onConfirm={() => {
          setConfirming(false);
          void form.submitWith(save)();
        }}
        onCancel={() => setConfirming(false)}
      />
    </AppForm>
  );
}
