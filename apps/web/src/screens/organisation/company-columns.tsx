import type { CompanySummary } from '@cardportal/domain';
import { Link } from 'react-router';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import { ActivePill } from '../../frame/status-pill.tsx';
import type { App } from '../../lib/app-context.tsx';

const col = dataColumns<CompanySummary>();

/** The company search grid: number (names the row, links to the company), name, issuer, group, status. */
export function companyColumns({ t }: Pick<App, 't'>): DataColumn<CompanySummary>[] {
  return col.columns([
    col.accessor('number', {
      header: t('app.org.field.number'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: (cell) => (
        <Link to={`/organisation/${encodeURIComponent(cell.getValue())}`}>{cell.getValue()}</Link>
      ),
    }),
    col.accessor('name1', { header: t('app.org.field.name1') }),
    col.accessor('issuerName', { header: t('app.org.field.issuer') }),
    col.accessor((row) => row.groupName ?? '', { id: 'groupName', header: t('app.org.field.groupName') }),
    col.display({
      id: 'status',
      header: t('app.people.field.status'),
      cell: ({ row }) => <ActivePill active={row.original.active} />,
    }),
  ]);
}
