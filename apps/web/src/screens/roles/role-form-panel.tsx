import { PERMISSIONS, type Permission, type RoleSummary } from '@cardportal/domain';
import { FieldError } from '@cardportal/ui';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { AppForm, SubmitButton } from '../../frame/form/app-form.tsx';
import { TextField } from '../../frame/form/fields.tsx';
import { useAppForm } from '../../frame/form/use-app-form.ts';
import { useApp } from '../../lib/app-context.tsx';
import {
  asksIssuer,
  initialRoleValues,
  ROLE_CODE_FIELDS,
  ROLE_FIELD_ALIAS,
  type RoleField,
  type RoleFormValues,
} from './role-form.ts';
import { roleFormSchema, useSaveRole } from './roles-queries.ts';

/**
 * Create a role, or edit one: name, description, the permissions it carries (a group of checkboxes)
 * and, when editing, whether it is active. Deactivating asks for confirmation first.
 */
export function RoleForm({
  role,
  onSaved,
  onCancel,
}: {
  role?: RoleSummary;
  onSaved: (role: RoleSummary) => void;
  onCancel: () => void;
}) {
  const { t, user: me, fieldProblemText } = useApp();
  const withIssuer = !role && asksIssuer(me.userType);
  const schema = useMemo(() => roleFormSchema(withIssuer), [withIssuer]);
  const form = useAppForm({
    schema,
    defaultValues: initialRoleValues(role),
    fieldAlias: ROLE_FIELD_ALIAS,
    codeFields: ROLE_CODE_FIELDS,
  });
  const save = useSaveRole(withIssuer);
  const [confirming, setConfirming] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const chosen = new Set(form.watch('permissions'));
  const active = form.watch('active');
  const permissionsProblem = form.formState.errors.permissions?.message;
  const heading = role ? t('app.roles.edit.heading', role.name) : t('app.roles.create.heading');

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const fieldLabel = (field: RoleField) => t(`app.roles.field.${field}`);

  const store = async (values: RoleFormValues) => {
    onSaved(await save.mutateAsync({ values, role }));
  };

  const toggle = (p: Permission, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(p);
    else next.delete(p);
    form.setValue(
      'permissions',
      PERMISSIONS.filter((x) => next.has(x)),
      { shouldDirty: true, shouldValidate: form.formState.isSubmitted },
    );
  };

  return (
    <section className="app-panel" aria-labelledby="role-form-heading">
      <h2 id="role-form-heading" tabIndex={-1} ref={headingRef}>
        {heading}
      </h2>
      <AppForm
        form={form}
        id="role-form"
        errorId="role-form-errors"
        onSubmit={async (values) => {
          if (role?.active && !values.active) setConfirming(true);
          else await store(values);
        }}
      >
        {withIssuer ? (
          <TextField
            control={form.control}
            name="issuerNumber"
            id="role-issuerNumber"
            label={fieldLabel('issuerNumber')}
            inputMode="numeric"
            autoComplete="off"
          />
        ) : null}
        <TextField
          control={form.control}
          name="name"
          id="role-name"
          label={fieldLabel('name')}
          autoComplete="off"
        />
        <TextField
          control={form.control}
          name="description"
          id="role-description"
          label={fieldLabel('description')}
          autoComplete="off"
        />
        <fieldset
          className={`cp-field${permissionsProblem ? ' cp-field--invalid' : ''}`}
          id="role-permissions"
          aria-describedby={permissionsProblem ? 'role-permissions-error' : undefined}
        >
          <legend className="cp-field__label">{fieldLabel('permissions')}</legend>
          {PERMISSIONS.map((p) => (
            <div key={p}>
              <label className="app-check">
                <input
                  type="checkbox"
                  id={`role-permission-${p}`}
                  checked={chosen.has(p)}
                  onChange={(e) => toggle(p, e.target.checked)}
                />
                {t(`app.permission.${p}`)}
              </label>
            </div>
          ))}
          <FieldError
            id="role-permissions-error"
            message={permissionsProblem ? fieldProblemText(permissionsProblem) : undefined}
          />
        </fieldset>
        {role ? (
          <div className="cp-field">
            <label className="app-check">
              <input
                type="checkbox"
                id="role-active"
                checked={active}
                aria-describedby="role-active-hint"
                onChange={(e) => form.setValue('active', e.target.checked, { shouldDirty: true })}
              />
              {fieldLabel('active')}
            </label>
            <p className="app-hint" id="role-active-hint">
              {t('app.roles.active.hint')}
            </p>
          </div>
        ) : null}
        <div className="app-actions">
          <SubmitButton form={form} id="role-save">
            {t('app.roles.action.save')}
          </SubmitButton>
          <button type="button" className="app-button" id="role-cancel" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </div>
      </AppForm>
      <ConfirmDialog
        open={confirming}
        title={role ? t('app.roles.confirm.deactivate', role.name) : ''}
        body={t('app.roles.confirm.deactivateBody')}
        confirmLabel={t('app.people.action.deactivate')}
        onConfirm={() => {
          setConfirming(false);
          void form.submitWith(store)();
        }}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
