import { type RoleSummary, type UserRoles, userRolesBodySchema } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../frame/empty-state.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { userRolesQuery, useSetUserRoles } from './people-queries.ts';

/**
 * The user's roles on the user view (issue 7): what it holds, and for a caller who may change them a
 * group of checkboxes of the roles it may give (held roles it may not give stay as they are).
 */
export function UserRolesPanel({ userId }: { userId: string }) {
  const { t, problemText } = useApp();
  const query = useQuery(userRolesQuery(userId));
  const data = query.data;
  const [done, setDone] = useState(false);
  const problem = query.isError ? problemOf(query.error) : undefined;

  const permissions = (role: RoleSummary) =>
    role.permissions.length > 0
      ? role.permissions.map((p) => t(`app.permission.${p}`)).join(', ')
      : t('app.roles.noPermissions');

  return (
    <section className="app-panel" id="user-roles" aria-labelledby="user-roles-heading">
      <h2 id="user-roles-heading">{t('app.people.roles.heading')}</h2>
      {data?.mayChange && data.assignable.length > 0 ? null : (
        <ErrorSummary id="user-roles-error" message={problem ? problemText(problem) : undefined} />
      )}
      <p role="status" id="user-roles-done" className="app-done">
        {done ? t('app.people.roles.saved') : ''}
      </p>
      {query.isPending ? <p>{t('common.loading')}</p> : null}
      {data ? (
        data.roles.length === 0 ? (
          <EmptyState id="user-roles-none">{t('app.people.roles.none')}</EmptyState>
        ) : (
          <ul id="user-roles-list" aria-label={t('app.people.roles.held')}>
            {data.roles.map((role) => (
              <li key={role.id}>
                {role.name}
                <span className="app-hint"> — {permissions(role)}</span>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {data?.mayChange && data.assignable.length === 0 ? (
        <p className="app-hint" id="user-roles-nothing">
          {t('app.people.roles.noneAssignable')}
        </p>
      ) : null}
      {data?.mayChange && data.assignable.length > 0 ? (
        <RolesForm data={data} permissions={permissions} onDone={setDone} />
      ) : null}
    </section>
  );
}

function RolesForm({
  data,
  permissions,
  onDone,
}: {
  data: UserRoles;
  permissions: (role: RoleSummary) => string;
  onDone: (done: boolean) => void;
}) {
  const { t } = useApp();
  const save = useSetUserRoles(data.userId);
  const form = useAppForm({
    schema: userRolesBodySchema,
    defaultValues: { roleIds: data.roles.map((r) => r.id) },
  });
  const chosen = new Set(form.watch('roleIds'));
  const assignable = new Set(data.assignable.map((r) => r.id));
  // The held roles the caller may not give stay checked and fixed; then the ones it may give.
  const offered = [...data.roles.filter((r) => !assignable.has(r.id)), ...data.assignable];

  const toggle = (id: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    form.setValue('roleIds', [...next], { shouldDirty: true });
  };

  return (
    <AppForm
      form={form}
      id="user-roles-form"
      errorId="user-roles-error"
      onSubmit={async (values) => {
        onDone(false);
        const saved = await save.mutateAsync(values.roleIds);
        form.reset({ roleIds: saved.roles.map((r) => r.id) });
        onDone(true);
      }}
    >
      <fieldset className="cp-field">
        <legend className="cp-field__label">{t('app.people.roles.choose', data.userId)}</legend>
        {offered.map((role) => (
          <div key={role.id}>
            <label className="app-check">
              <input
                type="checkbox"
                id={`user-role-${role.id}`}
                checked={chosen.has(role.id)}
                disabled={!assignable.has(role.id)}
                aria-describedby={`user-role-${role.id}-hint`}
                onChange={(e) => toggle(role.id, e.target.checked)}
              />
              {role.name}
            </label>
            <p className="app-hint" id={`user-role-${role.id}-hint`}>
              {permissions(role)}
              {assignable.has(role.id) ? '' : ` ${t('app.people.roles.notYours')}`}
            </p>
          </div>
        ))}
      </fieldset>
      <div className="app-actions">
        <SubmitButton form={form} id="user-roles-save">
          {t('app.people.roles.save')}
        </SubmitButton>
      </div>
    </AppForm>
  );
}
