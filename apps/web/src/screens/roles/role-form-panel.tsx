import { PERMISSIONS, type RoleSummary } from '@cardportal/domain';
import { ErrorSummary, FieldError, TextField } from '@cardportal/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { createRole, updateRole } from '../../api/roles.ts';
import { ConfirmDialog } from '../../frame/confirm-dialog.tsx';
import { useApp } from '../../lib/app-context.tsx';
import { useForm } from '../../lib/use-form.ts';
import {
  asksIssuer,
  initialRoleValues,
  newRoleBody,
  permissionsOf,
  ROLE_CODE_FIELDS,
  ROLE_FIELD_ALIAS,
  type RoleField,
  rolePatch,
  togglePermission,
  validateRole,
} from './role-form.ts';

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
  const { t, user: me, problemText, fieldProblemText } = useApp();
  const withIssuer = !role && asksIssuer(me.userType);
  const form = useForm<RoleField>({
    initial: initialRoleValues(role),
    validate: (values) => validateRole(values, { withIssuer }),
    fieldAlias: ROLE_FIELD_ALIAS,
    codeFields: ROLE_CODE_FIELDS,
  });
  const [confirming, setConfirming] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { values, problems } = form;
  const chosen = new Set(permissionsOf(values));
  const heading = role ? t('app.roles.edit.heading', role.name) : t('app.roles.create.heading');

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const err = (field: RoleField) => (problems[field] ? fieldProblemText(problems[field]) : undefined);
  const fieldLabel = (field: RoleField) => t(`app.roles.field.${field}`);
  const fieldId = (field: RoleField) =>
    field === 'permissions' ? `role-permission-${PERMISSIONS[0]}` : `role-${field}`;
  const items = (Object.keys(problems) as RoleField[])
    .filter((f) => problems[f])
    .map((f) => ({ fieldId: fieldId(f), text: `${fieldLabel(f)}: ${err(f)}` }));

  const save = async () => {
    const ok = await form.submit(async (v) => {
      const saved = role
        ? await updateRole(role.id, rolePatch(v, role))
        : await createRole(newRoleBody(v, withIssuer));
      onSaved(saved);
    });
    if (!ok) window.setTimeout(() => document.getElementById('role-form-errors')?.focus(), 0);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (role?.active && values.active === 'false') setConfirming(true);
    else void save();
  };

  return (
    <section className="app-panel" aria-labelledby="role-form-heading">
      <h2 id="role-form-heading" tabIndex={-1} ref={headingRef}>
        {heading}
      </h2>
      <form className="app-form" onSubmit={submit} noValidate id="role-form">
        <ErrorSummary
          id="role-form-errors"
          headingLevel={3}
          heading={items.length > 0 || form.formProblem ? t('app.people.form.errors') : undefined}
          message={form.formProblem ? problemText(form.formProblem) : undefined}
          items={items}
        />
        {withIssuer ? (
          <TextField
            id="role-issuerNumber"
            label={fieldLabel('issuerNumber')}
            value={values.issuerNumber}
            onValueChange={(v) => form.set('issuerNumber', v)}
            error={err('issuerNumber')}
            inputMode="numeric"
            autoComplete="off"
          />
        ) : null}
        <TextField
          id="role-name"
          label={fieldLabel('name')}
          value={values.name}
          onValueChange={(v) => form.set('name', v)}
          error={err('name')}
          autoComplete="off"
        />
        <TextField
          id="role-description"
          label={fieldLabel('description')}
          value={values.description}
          onValueChange={(v) => form.set('description', v)}
          error={err('description')}
          autoComplete="off"
        />
        <fieldset
          className={`cp-field${problems.permissions ? ' cp-field--invalid' : ''}`}
          id="role-permissions"
          aria-describedby={problems.permissions ? 'role-permissions-error' : undefined}
        >
          <legend className="cp-field__label">{fieldLabel('permissions')}</legend>
          {PERMISSIONS.map((p) => (
            <div key={p}>
              <label className="app-check">
                <input
                  type="checkbox"
                  id={`role-permission-${p}`}
                  checked={chosen.has(p)}
                  onChange={(e) => form.set('permissions', togglePermission(values, p, e.target.checked))}
                />
                {t(`app.permission.${p}`)}
              </label>
            </div>
          ))}
          <FieldError id="role-permissions-error" message={err('permissions')} />
        </fieldset>
        {role ? (
          <div className="cp-field">
            <label className="app-check">
              <input
                type="checkbox"
                id="role-active"
                checked={values.active === 'true'}
                aria-describedby="role-active-hint"
                onChange={(e) => form.set('active', e.target.checked ? 'true' : 'false')}
              />
              {fieldLabel('active')}
            </label>
            <p className="app-hint" id="role-active-hint">
              {t('app.roles.active.hint')}
            </p>
          </div>
        ) : null}
        <div className="app-actions">
          <button
            type="submit"
            className="app-button app-button--primary"
            id="role-save"
            disabled={form.submitting}
          >
            {t('app.roles.action.save')}
          </button>
          <button type="button" className="app-button" id="role-cancel" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title={role ? t('app.roles.confirm.deactivate', role.name) : ''}
        body={t('app.roles.confirm.deactivateBody')}
        confirmLabel={t('app.people.action.deactivate')}
        onConfirm={() => {
          setConfirming(false);
          void save();
        }}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
