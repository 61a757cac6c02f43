import type { IssuerSummary } from '@cardportal/domain';
import { Link } from 'react-router';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import type { App } from '../../lib/app-context.tsx';

const col = dataColumns<IssuerSummary>();

/** The issuer search grid: number (names the row, links to the issuer), name, ICA, issuer group, status. */
export function issuerColumns({ t }: Pick<App, 't'>): DataColumn<IssuerSummary>[] {
  return col.columns([
    col.accessor('number', {
      header: t('app.issuers.field.number'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: (cell) => <Link to={`/issuers/${encodeURIComponent(cell.getValue())}`}>{cell.getValue()}</Link>,
    }),
    col.accessor('name1', { header: t('app.org.field.name1') }),
    col.accessor('ica', { header: t('app.issuers.field.ica') }),
    col.accessor((row) => row.issuerGroupName ?? '', {
      id: 'issuerGroup',
      header: t('app.issuers.field.issuerGroup'),
    }),
    col.display({
      id: 'status',
      header: t('app.people.field.status'),
      cell: ({ row }) => <ActivePill active={row.original.active} />,
    }),
  ]);
}
