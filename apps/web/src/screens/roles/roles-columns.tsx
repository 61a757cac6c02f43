import type { RoleSummary } from '@cardportal/domain';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import type { App } from '../../lib/app-context.tsx';

const col = dataColumns<RoleSummary>();

/** A role's permissions as text, in the user's language. */
export const permissionText = (t: App['t'], role: RoleSummary) =>
  role.permissions.length > 0
    ? role.permissions.map((p) => t(`app.permission.${p}`)).join(', ')
    : t('app.roles.noPermissions');

/**
 * The roles grid's columns (a complete list: the table sorts it): name with description (names the
 * row), issuer, permissions, holders, status and, for those who may define roles, an edit button.
 */
export function rolesColumns({
  t,
  onEdit,
}: Pick<App, 't'> & { onEdit?: ((role: RoleSummary) => void) | undefined }): DataColumn<RoleSummary>[] {
  const columns = [
    col.accessor('name', {
      header: t('app.roles.field.name'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: ({ row: { original: role } }) => (
        <>
          {role.name}
          {role.description ? <div className="app-hint">{role.description}</div> : null}
        </>
      ),
    }),
    col.accessor((role) => `${role.issuerName} (${role.issuerNumber})`, {
      id: 'issuer',
      header: t('app.org.field.issuer'),
    }),
    col.accessor((role) => permissionText(t, role), {
      id: 'permissions',
      header: t('app.roles.field.permissions'),
    }),
    col.accessor('holders', {
      header: t('app.roles.col.holders'),
      meta: { className: 'app-num' },
      sortDescFirst: true,
    }),
    col.accessor((role) => t(`app.status.${role.active ? 'Active' : 'Inactive'}`), {
      id: 'status',
      header: t('app.people.field.status'),
      cell: ({ row: { original: role }, getValue }) => (
        <span className={`app-status app-status--${role.active ? 'active' : 'inactive'}`}>{getValue()}</span>
      ),
    }),
  ];
  if (!onEdit) return col.columns(columns);
  return col.columns([
    ...columns,
    col.display({
      id: 'actions',
      header: t('app.roles.col.actions'),
      enableHiding: false,
      cell: ({ row: { original: role } }) => (
        <button
          type="button"
          id={`role-edit-${role.id}`}
          className="app-button app-button--small"
          aria-label={t('app.roles.action.editLabel', role.name)}
          onClick={() => onEdit(role)}
        >
          {t('app.roles.action.edit')}
        </button>
      ),
    }),
  ]);
}
