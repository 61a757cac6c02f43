import type { RoleSummary } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { DataTable } from '../../frame/data-table.tsx';
import { EmptyState } from '../../frame/empty-state.tsx';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { RoleForm } from './role-form-panel.tsx';
import { rolesColumns } from './roles-columns.tsx';
import { rolesQuery } from './roles-queries.ts';

type Editing = { mode: 'create' } | { mode: 'edit'; role: RoleSummary } | undefined;

/**
 * The issuer's roles (issue 7): name, issuer, permissions, holders and status for every administrator;
 * those who may define roles (issuer administrators and above) create and edit them here.
 */
export function RolesScreen() {
  const { t, problemText } = useApp();
  const query = useQuery(rolesQuery());
  const list = query.data;
  const problem = query.isError ? problemOf(query.error) : undefined;
  const [editing, setEditing] = useState<Editing>();
  const [done, setDone] = useState<string | undefined>();
  const doneRef = useRef<HTMLParagraphElement>(null);
  /** Where focus goes back to when the form closes: the button that opened it. */
  const returnFocus = useRef<string | undefined>(undefined);
  usePageTitle(t('app.roles.heading'));

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

  const saved = (role: RoleSummary, how: 'created' | 'saved') => {
    setEditing(undefined);
    setDone(t(`app.roles.done.${how}`, role.name));
    window.setTimeout(() => doneRef.current?.focus(), 0);
  };

  // The edit buttons call the latest `open` through a ref, so the columns stay stable.
  const openRef = useRef(open);
  openRef.current = open;
  const mayDefine = list?.mayDefine === true;
  const columns = useMemo(
    () =>
      rolesColumns({
        t,
        onEdit: mayDefine
          ? (role) => openRef.current({ mode: 'edit', role }, `role-edit-${role.id}`)
          : undefined,
      }),
    [t, mayDefine],
  );

  return (
    <>
      <h1>{t('app.roles.heading')}</h1>
      <p>{t('app.roles.intro')}</p>
      <ErrorSummary id="roles-error" message={problem ? problemText(problem) : undefined} />
      <p role="status" id="roles-done" className="app-done" tabIndex={-1} ref={doneRef}>
        {done ?? ''}
      </p>
      {query.isPending ? <p role="status">{t('common.loading')}</p> : null}
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
          onSaved={(role) => saved(role, editing.mode === 'create' ? 'created' : 'saved')}
          onCancel={close}
        />
      ) : null}
      {list ? (
        list.roles.length === 0 ? (
          <EmptyState id="roles-none">{t('app.roles.none')}</EmptyState>
        ) : (
          <DataTable
            id="roles-table"
            caption={t('app.roles.table.caption')}
            columns={columns}
            data={list.roles}
            getRowId={(role) => String(role.id)}
            loading={query.isFetching && !query.isPending}
            columnChoice
          />
        )
      ) : null}
    </>
  );
}
