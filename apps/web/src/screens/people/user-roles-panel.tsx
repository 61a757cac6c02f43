import type { RoleSummary, UserRoles } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { getUserRoles, setUserRoles } from '../../api/roles.ts';
import { useApp } from '../../lib/app-context.tsx';

/**
 * The user's roles on the user view (issue 7): what it holds, and for a caller who may change them a
 * group of checkboxes of the roles it may give (held roles it may not give stay as they are).
 */
export function UserRolesPanel({ userId }: { userId: string }) {
  const { t, problemText } = useApp();
  const [data, setData] = useState<UserRoles | undefined>();
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const show = useCallback((next: UserRoles) => {
    setData(next);
    setChosen(new Set(next.roles.map((r) => r.id)));
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    setData(undefined);
    setProblem(undefined);
    setDone(false);
    getUserRoles(userId, controller.signal).then(show, (error: unknown) => {
      if (!controller.signal.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
    });
    return () => controller.abort();
  }, [userId, show]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!data) return;
    setBusy(true);
    setProblem(undefined);
    setDone(false);
    try {
      show(await setUserRoles(userId, [...chosen]));
      setDone(true);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.code : 'error.generic');
      window.setTimeout(() => document.getElementById('user-roles-error')?.focus(), 0);
    } finally {
      setBusy(false);
    }
  };

  const permissions = (role: RoleSummary) =>
    role.permissions.length > 0
      ? role.permissions.map((p) => t(`app.permission.${p}`)).join(', ')
      : t('app.roles.noPermissions');

  const assignable = new Set(data?.assignable.map((r) => r.id));
  // The held roles the caller may not give stay checked and fixed; then the ones it may give.
  const offered = data ? [...data.roles.filter((r) => !assignable.has(r.id)), ...data.assignable] : [];
  const editable = data?.mayChange === true && data.assignable.length > 0;

  return (
    <section className="app-panel" id="user-roles" aria-labelledby="user-roles-heading">
      <h2 id="user-roles-heading">{t('app.people.roles.heading')}</h2>
      <ErrorSummary id="user-roles-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="user-roles-done" className="app-done">
        {done ? t('app.people.roles.saved') : ''}
      </p>
      {!data && !problem ? <p>{t('common.loading')}</p> : null}
      {data ? (
        data.roles.length === 0 ? (
          <p id="user-roles-none">{t('app.people.roles.none')}</p>
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
      {data && editable ? (
        <form className="app-form" onSubmit={save} noValidate id="user-roles-form">
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
                    onChange={(e) =>
                      setChosen((current) => {
                        const next = new Set(current);
                        if (e.target.checked) next.add(role.id);
                        else next.delete(role.id);
                        return next;
                      })
                    }
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
            <button
              type="submit"
              className="app-button app-button--primary"
              id="user-roles-save"
              disabled={busy}
            >
              {t('app.people.roles.save')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
