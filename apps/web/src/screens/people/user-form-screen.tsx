import {
  type CreateUserBody,
  creatableUserTypes,
  LOCALE_NAMES,
  SUPPORTED_LOCALES,
  type UpdateUserBody,
  type UserDetail,
  type UserType,
} from '@cardportal/domain';
import { ErrorSummary, FieldError, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { createUser, getUser, updateUser } from '../../api/users.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { useForm } from '../../lib/use-form.ts';
import {
  needsCompany,
  USER_CODE_FIELDS,
  USER_FIELD_ALIAS,
  type UserField,
  validateUser,
} from './user-form.ts';

/** Create a user, or edit one (`/people/:userId/edit`): the edit form loads the user first. */
export function UserFormScreen({ mode }: { mode: 'create' | 'edit' }) {
  const { t, problemText } = useApp();
  const { userId = '' } = useParams();
  const [detail, setDetail] = useState<UserDetail | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const heading = mode === 'create' ? t('app.people.create.heading') : t('app.people.edit.heading', userId);
  usePageTitle(heading);

  useEffect(() => {
    if (mode !== 'edit') return;
    const controller = new AbortController();
    getUser(userId, controller.signal).then(setDetail, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
    });
    return () => controller.abort();
  }, [mode, userId]);

  return (
    <>
      <h1>{heading}</h1>
      <ErrorSummary id="user-load-error" message={problem ? problemText(problem) : undefined} />
      {mode === 'create' ? <UserForm mode="create" /> : null}
      {mode === 'edit' && detail ? <UserForm mode="edit" detail={detail} /> : null}
      {mode === 'edit' && !detail && !problem ? <p>{t('common.loading')}</p> : null}
    </>
  );
}

function UserForm({ mode, detail }: { mode: 'create' | 'edit'; detail?: UserDetail }) {
  const { t, user: me, problemText, fieldProblemText } = useApp();
  const navigate = useNavigate();
  const types: UserType[] =
    mode === 'create' ? creatableUserTypes(me.userType) : (detail?.assignableTypes ?? []);
  const form = useForm<UserField>({
    initial: {
      userId: detail?.userId ?? '',
      firstName: detail?.firstName ?? '',
      lastName: detail?.lastName ?? '',
      email: detail?.email ?? '',
      emailConfirm: '',
      userType: detail?.userType ?? (types.includes('A') ? 'A' : (types[0] ?? '')),
      companyId: detail?.company?.number ?? '',
      locale: detail?.locale ?? me.locale,
    },
    validate: (values) =>
      validateUser(values, { mode, caller: me.userType, ...(detail ? { originalEmail: detail.email } : {}) }),
    fieldAlias: USER_FIELD_ALIAS,
    codeFields: USER_CODE_FIELDS,
  });
  const { values, problems } = form;
  const company = needsCompany(me.userType, values.userType);
  const err = (field: UserField) => (problems[field] ? fieldProblemText(problems[field]) : undefined);
  const items = (Object.keys(problems) as UserField[])
    .filter((f) => problems[f])
    .map((f) => ({ fieldId: `user-${f}`, text: `${t(`app.people.field.${f}`)}: ${err(f)}` }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await form.submit(async (v) => {
      const placement = company ? { companyNumber: v.companyId.trim() } : undefined;
      if (mode === 'create') {
        const body: CreateUserBody = {
          userId: v.userId,
          firstName: v.firstName.trim(),
          lastName: v.lastName.trim(),
          email: v.email.trim(),
          emailConfirm: v.emailConfirm.trim(),
          userType: v.userType as UserType,
          locale: v.locale as CreateUserBody['locale'] & string,
          ...(placement ? { placement } : {}),
        };
        const created = await createUser(body);
        navigate(`/people/${encodeURIComponent(created.userId)}`, { state: { done: 'created' } });
      } else if (detail) {
        const body: UpdateUserBody = {};
        if (v.firstName.trim() !== detail.firstName) body.firstName = v.firstName.trim();
        if (v.lastName.trim() !== detail.lastName) body.lastName = v.lastName.trim();
        if (v.email.trim().toLowerCase() !== detail.email.toLowerCase()) {
          body.email = v.email.trim();
          body.emailConfirm = v.emailConfirm.trim();
        }
        if (v.locale !== detail.locale) body.locale = v.locale as UpdateUserBody['locale'];
        if (v.userType !== detail.userType) body.userType = v.userType as UserType;
        if (placement && placement.companyNumber !== detail.company?.number) body.placement = placement;
        const saved = await updateUser(detail.userId, body);
        navigate(`/people/${encodeURIComponent(saved.userId)}`, { state: { done: 'saved' } });
      }
    });
    if (!ok) window.setTimeout(() => document.getElementById('user-form-errors')?.focus(), 0);
  };

  const field = (
    name: 'userId' | 'firstName' | 'lastName' | 'email' | 'emailConfirm' | 'companyId',
    extra = {},
  ) => (
    <TextField
      id={`user-${name}`}
      label={t(`app.people.field.${name}`)}
      value={values[name]}
      onValueChange={(v) => form.set(name, v)}
      error={err(name)}
      {...extra}
    />
  );

  return (
    <form className="app-form" onSubmit={submit} noValidate id="user-form">
      <ErrorSummary
        id="user-form-errors"
        heading={items.length > 0 || form.formProblem ? t('app.people.form.errors') : undefined}
        message={form.formProblem ? problemText(form.formProblem) : undefined}
        items={items}
      />
      {mode === 'create' ? field('userId', { autoComplete: 'off', spellCheck: false }) : null}
      {field('firstName', { autoComplete: 'off' })}
      {field('lastName', { autoComplete: 'off' })}
      {field('email', { type: 'email', autoComplete: 'off' })}
      {field('emailConfirm', { type: 'email', autoComplete: 'off' })}
      <div className={`cp-field${problems.userType ? ' cp-field--invalid' : ''}`}>
        <label className="cp-field__label" htmlFor="user-userType">
          {t('app.people.field.userType')}
        </label>
        <select
          id="user-userType"
          className="cp-field__input"
          value={values.userType}
          onChange={(e) => form.set('userType', e.target.value)}
          aria-invalid={problems.userType ? true : undefined}
          aria-describedby={problems.userType ? 'user-userType-error' : undefined}
        >
          {types.map((code) => (
            <option key={code} value={code}>
              {t(`app.userType.${code}`)}
            </option>
          ))}
        </select>
        <FieldError id="user-userType-error" message={err('userType')} />
      </div>
      {company ? field('companyId', { inputMode: 'numeric' }) : null}
      <div className="cp-field">
        <label className="cp-field__label" htmlFor="user-locale">
          {t('app.people.field.locale')}
        </label>
        <select
          id="user-locale"
          className="cp-field__input"
          value={values.locale}
          onChange={(e) => form.set('locale', e.target.value)}
        >
          {SUPPORTED_LOCALES.map((code) => (
            <option key={code} value={code}>
              {LOCALE_NAMES[code]}
            </option>
          ))}
        </select>
      </div>
      <div className="app-actions">
        <button
          type="submit"
          className="app-button app-button--primary"
          id="user-save"
          disabled={form.submitting}
        >
          {t('app.people.form.save')}
        </button>
        <Link className="app-button" to={detail ? `/people/${encodeURIComponent(detail.userId)}` : '/people'}>
          {t('common.cancel')}
        </Link>
      </div>
    </form>
  );
}
