import type { CompanySummary } from '@cardportal/domain';
import { ErrorSummary, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { createCompany, getCompany, updateCompany } from '../../api/organisations.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { useForm } from '../../lib/use-form.ts';
import { COMPANY_CODE_FIELDS, type CompanyField, validateCompany } from './company-form.ts';

/** Create a company, or edit one (`/organisation/:number/edit`): names, group, multi-user on. */
export function CompanyFormScreen({ mode }: { mode: 'create' | 'edit' }) {
  const { t, problemText } = useApp();
  const { number = '' } = useParams();
  const [detail, setDetail] = useState<CompanySummary | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const heading = mode === 'create' ? t('app.org.create.heading') : t('app.org.edit.heading', number);
  usePageTitle(heading);

  useEffect(() => {
    if (mode !== 'edit') return;
    const controller = new AbortController();
    getCompany(number, controller.signal).then(setDetail, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
    });
    return () => controller.abort();
  }, [mode, number]);

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

function CompanyForm({ mode, detail }: { mode: 'create' | 'edit'; detail?: CompanySummary }) {
  const { t, problemText, fieldProblemText } = useApp();
  const navigate = useNavigate();
  const [multiUser, setMultiUser] = useState(detail?.multiUser ?? false);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<CompanyField>({
    initial: {
      issuerNumber: detail?.issuerNumber ?? '',
      number: detail?.number ?? '',
      name1: detail?.name1 ?? '',
      name2: detail?.name2 ?? '',
      groupName: detail?.groupName ?? '',
    },
    validate: (values) => validateCompany(values, mode),
    codeFields: COMPANY_CODE_FIELDS,
  });
  const { values, problems } = form;
  const err = (field: CompanyField) => (problems[field] ? fieldProblemText(problems[field]) : undefined);
  const items = (Object.keys(problems) as CompanyField[])
    .filter((f) => problems[f])
    .map((f) => ({ fieldId: `company-${f}`, text: `${t(`app.org.field.${f}`)}: ${err(f)}` }));
  const turningOn = multiUser && !(detail?.multiUser ?? false);

  const save = async () => {
    const ok = await form.submit(async (v) => {
      if (mode === 'create') {
        const created = await createCompany({
          issuerNumber: v.issuerNumber.trim(),
          number: v.number.trim(),
          name1: v.name1.trim(),
          name2: v.name2.trim(),
          groupName: v.groupName.trim(),
          multiUser,
        });
        navigate(`/organisation/${encodeURIComponent(created.number)}`, { state: { done: 'created' } });
      } else if (detail) {
        const saved = await updateCompany(detail.number, {
          name1: v.name1.trim(),
          name2: v.name2.trim(),
          groupName: v.groupName.trim(),
          ...(turningOn ? { multiUser: true } : {}),
        });
        navigate(`/organisation/${encodeURIComponent(saved.number)}`, { state: { done: 'saved' } });
      }
    });
    if (!ok) window.setTimeout(() => document.getElementById('company-form-errors')?.focus(), 0);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (turningOn) setConfirming(true);
    else void save();
  };

  const field = (name: CompanyField, extra = {}) => (
    <TextField
      id={`company-${name}`}
      label={t(`app.org.field.${name}`)}
      value={values[name]}
      onValueChange={(v) => form.set(name, v)}
      error={err(name)}
      autoComplete="off"
      {...extra}
    />
  );

  return (
    <form className="app-form" onSubmit={submit} noValidate id="company-form">
      <ErrorSummary
        id="company-form-errors"
        heading={items.length > 0 || form.formProblem ? t('app.people.form.errors') : undefined}
        message={form.formProblem ? problemText(form.formProblem) : undefined}
        items={items}
      />
      {mode === 'create' ? field('issuerNumber', { inputMode: 'numeric' }) : null}
      {mode === 'create' ? field('number', { inputMode: 'numeric' }) : null}
      {field('name1')}
      {field('name2')}
      {field('groupName')}
      <div className="cp-field">
        <label className="app-check">
          <input
            type="checkbox"
            id="company-multiUser"
            checked={multiUser}
            disabled={detail?.multiUser === true}
            aria-describedby="company-multiUser-hint"
            onChange={(e) => setMultiUser(e.target.checked)}
          />{' '}
          {t('app.org.field.multiUser')}
        </label>
        <p className="app-hint" id="company-multiUser-hint">
          {t('app.org.multiUser.hint')}
        </p>
      </div>
      <div className="app-actions">
        <button
          type="submit"
          className="app-button app-button--primary"
          id="company-save"
          disabled={form.submitting}
        >
          {t('app.people.form.save')}
        </button>
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
          void save();
        }}
        onCancel={() => setConfirming(false)}
      />
    </form>
  );
}
