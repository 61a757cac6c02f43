import {
  DEFAULT_PASSWORD_POLICY,
  type IssuerDetail,
  type IssuerGroupSummary,
  LIMITS,
  mayOnIssuers,
} from '@cardportal/domain';
import { ErrorSummary, FieldError, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { createIssuer, getIssuer, listIssuerGroups, updateIssuer } from '../../api/issuers.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { useForm } from '../../lib/use-form.ts';
import { ISSUER_CODE_FIELDS, type IssuerField, validateIssuer, wholeNumber } from './issuer-form.ts';

/** Create an issuer (Z), or edit one (`/issuers/:number/edit`, Z and H; only Z moves it between groups). */
export function IssuerFormScreen({ mode }: { mode: 'create' | 'edit' }) {
  const { t, user, problemText } = useApp();
  const { number = '' } = useParams();
  const [detail, setDetail] = useState<IssuerDetail | undefined>();
  const [groups, setGroups] = useState<IssuerGroupSummary[] | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const heading = mode === 'create' ? t('app.issuers.create.heading') : t('app.issuers.edit.heading', number);
  usePageTitle(heading);
  const mayChooseGroup = mayOnIssuers(user.userType, 'createIssuer');

  useEffect(() => {
    const controller = new AbortController();
    const failed = (error: unknown) => {
      if (!controller.signal.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
    };
    if (mode === 'edit') getIssuer(number, controller.signal).then(setDetail, failed);
    if (mayChooseGroup) listIssuerGroups(controller.signal).then((list) => setGroups(list.rows), failed);
    else setGroups([]);
    return () => controller.abort();
  }, [mode, number, mayChooseGroup]);

  const ready = groups !== undefined && (mode === 'create' || detail !== undefined);
  return (
    <>
      <h1>{heading}</h1>
      <ErrorSummary id="issuer-load-error" message={problem ? problemText(problem) : undefined} />
      {ready ? (
        <IssuerForm mode={mode} detail={detail} groups={groups} mayChooseGroup={mayChooseGroup} />
      ) : null}
      {!ready && !problem ? <p>{t('common.loading')}</p> : null}
    </>
  );
}

function IssuerForm({
  mode,
  detail,
  groups,
  mayChooseGroup,
}: {
  mode: 'create' | 'edit';
  detail?: IssuerDetail | undefined;
  groups: IssuerGroupSummary[];
  mayChooseGroup: boolean;
}) {
  const { t, problemText, fieldProblemText } = useApp();
  const navigate = useNavigate();
  const form = useForm<IssuerField>({
    initial: {
      number: detail?.number ?? '',
      name1: detail?.name1 ?? '',
      name2: detail?.name2 ?? '',
      ica: detail?.ica ?? '',
      bankNumber: detail?.bankNumber ?? '',
      issuerGroupId: detail?.issuerGroupId ? String(detail.issuerGroupId) : '',
      cobrand: detail?.cobrand ?? '',
      passwordMinLength: String(detail?.passwordMinLength ?? DEFAULT_PASSWORD_POLICY.passwordMinLength),
      passwordDurationDays: String(
        detail?.passwordDurationDays ?? DEFAULT_PASSWORD_POLICY.passwordDurationDays,
      ),
    },
    validate: (values) => validateIssuer(values, mode),
    codeFields: ISSUER_CODE_FIELDS,
  });
  const { values, problems } = form;
  const err = (field: IssuerField) => (problems[field] ? fieldProblemText(problems[field]) : undefined);
  const label = (field: IssuerField) =>
    field === 'name1' || field === 'name2'
      ? t(`app.org.field.${field}`)
      : field === 'passwordMinLength'
        ? t(
            'app.issuers.form.passwordMinLength',
            String(LIMITS.passwordMinLength),
            String(LIMITS.passwordMaxLength),
          )
        : field === 'passwordDurationDays'
          ? t(
              'app.issuers.form.passwordDurationDays',
              String(LIMITS.passwordDurationMinDays),
              String(LIMITS.passwordDurationMaxDays),
            )
          : t(`app.issuers.field.${field === 'issuerGroupId' ? 'issuerGroup' : field}`);
  const items = (Object.keys(problems) as IssuerField[])
    .filter((f) => problems[f])
    .map((f) => ({ fieldId: `issuer-${f}`, text: `${label(f)}: ${err(f)}` }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await form.submit(async (v) => {
      const common = {
        name1: v.name1.trim(),
        name2: v.name2.trim(),
        ica: v.ica.trim(),
        bankNumber: v.bankNumber.trim(),
        cobrand: v.cobrand.trim() || null,
        passwordMinLength: wholeNumber(v.passwordMinLength),
        passwordDurationDays: wholeNumber(v.passwordDurationDays),
        ...(mayChooseGroup ? { issuerGroupId: v.issuerGroupId ? Number(v.issuerGroupId) : null } : {}),
      };
      const saved =
        mode === 'create'
          ? await createIssuer({ number: v.number.trim(), ...common })
          : await updateIssuer(detail?.number ?? '', common);
      navigate(`/issuers/${encodeURIComponent(saved.number)}`, {
        state: { done: mode === 'create' ? 'created' : 'saved' },
      });
    });
    if (!ok) window.setTimeout(() => document.getElementById('issuer-form-errors')?.focus(), 0);
  };

  const field = (name: IssuerField, extra = {}) => (
    <TextField
      id={`issuer-${name}`}
      label={label(name)}
      value={values[name]}
      onValueChange={(v) => form.set(name, v)}
      error={err(name)}
      autoComplete="off"
      {...extra}
    />
  );

  const groupError = err('issuerGroupId');
  return (
    <form className="app-form" onSubmit={submit} noValidate id="issuer-form">
      <ErrorSummary
        id="issuer-form-errors"
        heading={items.length > 0 || form.formProblem ? t('app.people.form.errors') : undefined}
        message={form.formProblem ? problemText(form.formProblem) : undefined}
        items={items}
      />
      {mode === 'create' ? field('number', { inputMode: 'numeric' }) : null}
      {field('name1')}
      {field('name2')}
      {field('ica', { inputMode: 'numeric' })}
      {field('bankNumber', { inputMode: 'numeric' })}
      {mayChooseGroup ? (
        <div className={`cp-field${groupError ? ' cp-field--invalid' : ''}`}>
          <label className="cp-field__label" htmlFor="issuer-issuerGroupId">
            {label('issuerGroupId')}
          </label>
          <select
            id="issuer-issuerGroupId"
            className="cp-field__input"
            value={values.issuerGroupId}
            onChange={(e) => form.set('issuerGroupId', e.target.value)}
            aria-invalid={groupError ? true : undefined}
            aria-describedby={groupError ? 'issuer-issuerGroupId-error' : undefined}
          >
            <option value="">{t('app.issuers.none')}</option>
            {groups
              .filter((g) => g.active || String(g.id) === values.issuerGroupId)
              .map((g) => (
                <option key={g.id} value={String(g.id)}>
                  {g.name}
                </option>
              ))}
          </select>
          <FieldError id="issuer-issuerGroupId-error" message={groupError} />
        </div>
      ) : null}
      {field('cobrand')}
      {field('passwordMinLength', { inputMode: 'numeric' })}
      {field('passwordDurationDays', { inputMode: 'numeric' })}
      <div className="app-actions">
        <button
          type="submit"
          className="app-button app-button--primary"
          id="issuer-save"
          disabled={form.submitting}
        >
          {t('app.people.form.save')}
        </button>
        <Link
          className="app-button"
          to={detail ? `/issuers/${encodeURIComponent(detail.number)}` : '/issuers'}
        >
          {t('common.cancel')}
        </Link>
      </div>
    </form>
  );
}
