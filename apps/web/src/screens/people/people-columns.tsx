import type { LinkMember, UserSummary } from '@cardportal/domain';
import { Link } from 'react-router';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { StatusPill } from '../../frame/status-pill.tsx';
import type { App } from '../../lib/app-context.tsx';

const col = dataColumns<UserSummary>();

/** A user's name as shown: first and last name. */
export const nameOf = (row: { firstName: string; lastName: string }) =>
  [row.firstName, row.lastName].filter(Boolean).join(' ');

/**
 * The people grid's columns: the user ID (names the row, links to the user), name (sorted by last name,
 * first name), e-mail, type and status; the server sorts by name, user ID, type or status. All but the user ID may be hidden.
 */
export function peopleColumns({ t }: Pick<App, 't'>): DataColumn<UserSummary>[] {
  return col.columns([
    col.accessor('userId', {
      header: t('app.userId'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: (cell) => <Link to={`/people/${encodeURIComponent(cell.getValue())}`}>{cell.getValue()}</Link>,
    }),
    col.accessor((row) => nameOf(row), { id: 'name', header: t('app.people.field.name') }),
    col.accessor('email', { header: t('app.people.field.email') }),
    col.accessor((row) => t(`app.userType.${row.userType}`), { id: 'userType', header: t('app.userType') }),
    col.accessor('status', {
      header: t('app.people.field.status'),
      cell: ({ row }) => <StatusPill status={row.original.status} />,
    }),
  ]);
}

const member = dataColumns<LinkMember>();

/** The linked user IDs' columns (a complete list: the table sorts it). */
export function linkMemberColumns({ t }: Pick<App, 't'>): DataColumn<LinkMember>[] {
  return member.columns([
    member.accessor('userId', {
      header: t('app.people.field.userId'),
      enableHiding: false,
      meta: { rowHeader: true },
    }),
    member.accessor((m) => nameOf(m), { id: 'name', header: t('app.people.field.name') }),
    member.accessor((m) => (m.companyName ? `${m.companyName} (${m.companyNumber})` : ''), {
      id: 'company',
      header: t('app.people.field.company'),
    }),
    member.display({
      id: 'status',
      header: t('app.people.field.status'),
      cell: ({ row }) => <StatusPill status={row.original.status} />,
    }),
    member.accessor((m) => t(m.confirmed ? 'app.people.link.confirmed' : 'app.people.link.awaiting'), {
      id: 'confirmation',
      header: t('app.people.link.confirmation'),
    }),
  ]);
}
