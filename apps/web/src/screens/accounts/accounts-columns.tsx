import type { AccountSummary, CardholderSummary } from '@cardportal/domain';
import { Link } from 'react-router';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import type { App } from '../../lib/app-context.tsx';
import { AccountStatusPill, fullName } from './shared.tsx';

type Columns = Pick<App, 't' | 'languageTag'> & { number: string };
const base = (number: string) => `/organisation/${encodeURIComponent(number)}`;

const holder = dataColumns<CardholderSummary>();

/** The cardholder search's columns (the server's order: by name). */
export function cardholderColumns({ t, languageTag, number }: Columns): DataColumn<CardholderSummary>[] {
  const count = new Intl.NumberFormat(languageTag);
  return holder.columns([
    holder.accessor((row) => fullName(row), {
      id: 'name',
      header: t('app.accounts.field.cardholder'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: ({ row: { original: row } }) => (
        <Link to={`${base(number)}/cardholders/${row.id}`}>{fullName(row)}</Link>
      ),
    }),
    holder.accessor((row) => (row.orgPoint ? `${row.orgPoint.number} ${row.orgPoint.name1}` : ''), {
      id: 'orgPoint',
      header: t('app.accounts.field.orgPoint'),
    }),
    holder.accessor('accountCount', {
      header: t('app.accounts.field.accountCount'),
      meta: { className: 'app-num' },
      cell: (cell) => count.format(cell.getValue()),
    }),
    holder.accessor((row) => (row.active ? 0 : 1), {
      id: 'status',
      header: t('app.people.field.status'),
      cell: ({ row }) => <ActivePill active={row.original.active} />,
    }),
  ]);
}

/** A masked card account as the grids show it (the accounts search, a cardholder's, My Cards). */
type AccountRow = Pick<AccountSummary, 'id' | 'maskedNumber' | 'group' | 'status'> & {
  cardholder?: AccountSummary['cardholder'];
  alias?: AccountSummary['alias'];
};
const account = dataColumns<AccountRow>();

/**
 * Card accounts' columns: the masked number (names the row; a link when `number` is given), the
 * cardholder (when `withHolder`), group and status.
 */
export function accountColumns({
  t,
  number,
  withHolder,
}: Pick<App, 't'> & { number?: string | undefined; withHolder?: boolean }): DataColumn<AccountRow>[] {
  return account.columns([
    account.accessor('maskedNumber', {
      header: t('app.accounts.field.number'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: ({ row: { original: row } }) =>
        number ? (
          <Link to={`${base(number)}/accounts/${row.id}`} className="app-account-number">
            {row.maskedNumber}
          </Link>
        ) : (
          row.maskedNumber
        ),
    }),
    ...(withHolder && number
      ? [
          // A real card has no cardholder: its alias stands in, linking to the real cards.
          account.accessor((row) => (row.cardholder ? fullName(row.cardholder) : (row.alias ?? '')), {
            id: 'cardholder',
            header: t('app.accounts.field.cardholder'),
            cell: ({ row: { original: row } }) =>
              row.cardholder ? (
                <Link to={`${base(number)}/cardholders/${row.cardholder.id}`}>
                  {fullName(row.cardholder)}
                </Link>
              ) : row.alias ? (
                <Link to={`${base(number)}/real-cards?q=${encodeURIComponent(row.alias.slice(0, 100))}`}>
                  {t('app.accounts.realCardAlias', row.alias)}
                </Link>
              ) : null,
          }),
        ]
      : []),
    account.accessor((row) => row.group?.name ?? '', { id: 'group', header: t('app.accounts.field.group') }),
    account.accessor('status', {
      header: t('app.people.field.status'),
      cell: ({ row }) => <AccountStatusPill status={row.original.status} />,
    }),
  ]);
}
