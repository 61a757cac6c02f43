import type { RoleList, RoleSummary } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { listRoles } from '../../api/roles.ts';
import { TableWrap } from '../../frame/table-wrap.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { RoleForm } from './role-form-panel.tsx';

type Editing = { mode: 'create' } | { mode: 'edit'; role: RoleSummary } | undefined;

/**
 * The issuer's roles (issue 7): name, issuer, permissions, holders and status for every administrator;
 * those who may define roles (issuer administrators and above) create and edit them here.
 */
export function RolesScreen() {
  const { t, problemText } = useApp();
  const [list, setList] = useState<RoleList | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [editing, setEditing] = useState<Editing>();
  const [done, setDone] = useState<string | undefined>();
  const doneRef = useRef<HTMLParagraphElement>(null);
  /** Where focus goes back to when the form closes: the button that opened it. */
  const returnFocus = useRef<string | undefined>(undefined);
  usePageTitle(t('app.roles.heading'));

  const load = useCallback((signal?: AbortSignal) => {
    setProblem(undefined);
    return listRoles(signal).then(setList, (error: unknown) => {
      if (!signal?.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
    });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const open = (next: Editing, from: string) => {
    returnFocus.current = from;
    setDone(undefined);
    setEditing(next);
  };

  const close = () => {
    setEditing(undefined);
    const from = returnFocus.current;
    window.setTimeout(() => (from ? document.getElementById(from)?.focus() : undefined), 0);
  };

  const saved = async (role: RoleSummary, how: 'created' | 'saved') => {
    setEditing(undefined);
    setList((current) =>
      current
        ? {
            ...current,
            roles:
              how === 'created'
                ? [...current.roles, role]
                : current.roles.map((r) => (r.id === role.id ? role : r)),
          }
        : current,
    );
    setDone(t(`app.roles.done.${how}`, role.name));
    window.setTimeout(() => doneRef.current?.focus(), 0);
    // The list's order and holder counts come from the server.
    await load();
  };

  const permissionText = (role: RoleSummary) =>
    role.permissions.length > 0
      ? role.permissions.map((p) => t(`app.permission.${p}`)).join(', ')
      : t('app.roles.noPermissions');

  return (
    <>
      <h1>{t('app.roles.heading')}</h1>
      <p>{t('app.roles.intro')}</p>
      <ErrorSummary id="roles-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="roles-done" className="app-done" tabIndex={-1} ref={doneRef}>
        {done ?? ''}
      </p>
      {!list && !problem ? <p>{t('common.loading')}</p> : null}
      {list?.mayDefine && !editing ? (
        <div className="app-actions">
          <button
            type="button"
            id="role-create"
            className="app-button app-button--primary"
            onClick={() => open({ mode: 'create' }, 'role-create')}
          >
            {t('app.roles.action.create')}
          </button>
        </div>
      ) : null}
      {editing ? (
        <RoleForm
          key={editing.mode === 'edit' ? editing.role.id : 'new'}
          {...(editing.mode === 'edit' ? { role: editing.role } : {})}
          onSaved={(role) => void saved(role, editing.mode === 'create' ? 'created' : 'saved')}
          onCancel={close}
        />
      ) : null}
      {list ? (
        list.roles.length === 0 ? (
          <p id="roles-none">{t('app.roles.none')}</p>
        ) : (
          <TableWrap captionId="roles-table-caption">
            <table className="app-table" id="roles-table">
              <caption id="roles-table-caption">{t('app.roles.table.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('app.roles.field.name')}</th>
                  <th scope="col">{t('app.org.field.issuer')}</th>
                  <th scope="col">{t('app.roles.field.permissions')}</th>
                  <th scope="col">{t('app.roles.col.holders')}</th>
                  <th scope="col">{t('app.people.field.status')}</th>
                  {list.mayDefine ? <th scope="col">{t('app.roles.col.actions')}</th> : null}
                </tr>
              </thead>
              <tbody>
                {list.roles.map((role) => (
                  <tr key={role.id} data-role-id={role.id}>
                    <th scope="row">
                      {role.name}
                      {role.description ? <div className="app-hint">{role.description}</div> : null}
                    </th>
                    <td>
                      {role.issuerName} ({role.issuerNumber})
                    </td>
                    <td>{permissionText(role)}</td>
                    <td>{role.holders}</td>
                    <td>
                      <span className={`app-status app-status--${role.active ? 'active' : 'inactive'}`}>
                        {t(`app.status.${role.active ? 'Active' : 'Inactive'}`)}
                      </span>
                    </td>
                    {list.mayDefine ? (
                      <td>
                        <button
                          type="button"
                          id={`role-edit-${role.id}`}
                          className="app-button app-button--small"
                          aria-label={t('app.roles.action.editLabel', role.name)}
                          onClick={() => open({ mode: 'edit', role }, `role-edit-${role.id}`)}
                        >
                          {t('app.roles.action.edit')}
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )
      ) : null}
    </>
  );
}
