import {
  type CreateUserBody,
  creatableUserTypes,
  LOCALE_NAMES,
  SUPPORTED_LOCALES,
  type UpdateUserBody,
  type UserDetail,
  type UserType,
} from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { SelectField, TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { NotPermittedNotice } from '../../frame/not-permitted.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { useCreateUser, userFormSchema, userQuery, useUpdateUser } from './people-queries.ts';
import { needsCompany, USER_CODE_FIELDS, USER_FIELD_ALIAS, type UserField } from './user-form.ts';

/** Create a user, or edit one (`/people/:userId/edit`): the edit form loads the user first. */
export function UserFormScreen({ mode }: { mode: 'create' | 'edit' }) {
  const { t, problemText } = useApp();
  const { userId = '' } = useParams();
  const query = useQuery({ ...userQuery(userId), enabled: mode === 'edit' });
  const problem = mode === 'edit' && query.isError ? problemOf(query.error) : undefined;
  const heading = mode === 'create' ? t('app.people.create.heading') : t('app.people.edit.heading', userId);
  usePageTitle(heading);

  return (
    <>
      <h1>{heading}</h1>
      <ErrorSummary id="user-load-error" message={problem ? problemText(problem) : undefined} />
      {mode === 'create' ? <UserForm mode="create" /> : null}
      {mode === 'edit' && query.data && !query.data.allowed.modify ? (
        <NotPermittedNotice
          reason={t(
            query.data.readOnly ? 'app.people.edit.readOnly' : 'app.people.edit.notPermitted',
            query.data.userId,
          )}
          back={{
            to: `/people/${encodeURIComponent(query.data.userId)}`,
            label: t('app.people.edit.back', query.data.userId),
          }}
        />
      ) : null}
      {mode === 'edit' && query.data?.allowed.modify ? (
        <UserForm key={query.data.userId} mode="edit" detail={query.data} />
      ) : null}
      {mode === 'edit' && query.isPending ? <p role="status">{t('common.loading')}</p> : null}
    </>
  );
}

function UserForm({ mode, detail }: { mode: 'create' | 'edit'; detail?: UserDetail }) {
  const { t, user: me } = useApp();
  const navigate = useNavigate();
  const create = useCreateUser();
  const update = useUpdateUser();
  const types: UserType[] =
    mode === 'create' ? creatableUserTypes(me.userType) : (detail?.assignableTypes ?? []);
  const schema = useMemo(
    () => userFormSchema({ mode, caller: me.userType, ...(detail ? { originalEmail: detail.email } : {}) }),
    [mode, me.userType, detail],
  );
  const form = useAppForm({
    schema,
    defaultValues: {
      userId: detail?.userId ?? '',
      firstName: detail?.firstName ?? '',
      lastName: detail?.lastName ?? '',
      email: detail?.email ?? '',
      emailConfirm: '',
      userType: detail?.userType ?? (types.includes('A') ? 'A' : (types[0] ?? '')),
      companyId: detail?.company?.number ?? '',
      locale: detail?.locale ?? me.locale,
    },
    fieldAlias: USER_FIELD_ALIAS,
    codeFields: USER_CODE_FIELDS,
  });
  const company = needsCompany(me.userType, form.watch('userType'));

  const save = async (v: Record<UserField, string>) => {
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
      const created = await create.mutateAsync(body);
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
      const saved = await update.mutateAsync({ userId: detail.userId, body });
      navigate(`/people/${encodeURIComponent(saved.userId)}`, { state: { done: 'saved' } });
    }
  };

  const text = (
    name: 'userId' | 'firstName' | 'lastName' | 'email' | 'emailConfirm' | 'companyId',
    extra = {},
  ) => (
    <TextField
      control={form.control}
      name={name}
      id={`user-${name}`}
      label={t(`app.people.field.${name}`)}
      {...extra}
    />
  );

  return (
    <AppForm form={form} id="user-form" errorId="user-form-errors" onSubmit={save} requiredNote>
      {mode === 'create' ? text('userId', { autoComplete: 'off', spellCheck: false, required: true }) : null}
      {text('firstName', { autoComplete: 'off', required: true })}
      {text('lastName', { autoComplete: 'off', required: true })}
      {text('email', { type: 'email', autoComplete: 'off', required: true })}
      {text('emailConfirm', {
        type: 'email',
        autoComplete: 'off',
        required: mode === 'create',
        hint: mode === 'edit' ? t('app.people.form.emailConfirmHint') : undefined,
      })}
      <SelectField
        control={form.control}
        name="userType"
        id="user-userType"
        label={t('app.people.field.userType')}
        required
        options={types.map((code) => ({ value: code, label: t(`app.userType.${code}`) }))}
      />
      {company
        ? text('companyId', { inputMode: 'numeric', required: true, hint: t('app.people.form.companyHint') })
        : null}
      <SelectField
        control={form.control}
        name="locale"
        id="user-locale"
        label={t('app.people.field.locale')}
        hint={t('app.people.form.localeHint')}
        options={SUPPORTED_LOCALES.map((code) => ({
          value: code,
          label: LOCALE_NAMES[code],
          lang: code.replace('_', '-'),
        }))}
      />
      <div className="app-actions">
        <SubmitButton form={form} id="user-save">
          {t('app.people.form.save')}
        </SubmitButton>
        <Link className="app-button" to={detail ? `/people/${encodeURIComponent(detail.userId)}` : '/people'}>
          {t('common.cancel')}
        </Link>
      </div>
    </AppForm>
  );
}
