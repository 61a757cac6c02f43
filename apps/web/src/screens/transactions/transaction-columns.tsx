import type { TransactionStatus, TransactionSummary } from '@cardportal/domain';
import { Link } from 'react-router';
import { type DataColumn, dataColumns } from '../../frame/data-table.tsx';
import type { App } from '../../lib/app-context.tsx';

const col = dataColumns<TransactionSummary>();

/** A transaction's place in its life (seed 001 §4), as a pill. */
export function TransactionStatusPill({ status, t }: { status: TransactionStatus; t: App['t'] }) {
  return (
    <span className={`app-status app-status--tx-${status.toLowerCase()}`}>
      {t(`app.transactions.status.${status}`)}
    </span>
  );
}

/** The Transaction Summary's columns, in the server's order (date, newest or oldest first). */
export function transactionColumns({
  t,
  format,
}: Pick<App, 't' | 'format'>): DataColumn<TransactionSummary>[] {
  return col.columns([
    col.accessor('transactionDate', {
      header: t('app.transactions.field.date'),
      cell: (cell) => format.date(cell.getValue()),
    }),
    col.accessor('merchantName', {
      header: t('app.transactions.field.merchant'),
      enableHiding: false,
      meta: { rowHeader: true },
      cell: ({ row: { original: row } }) => <Link to={`/transactions/${row.id}`}>{row.merchantName}</Link>,
    }),
    col.accessor('category', {
      header: t('app.transactions.field.category'),
      cell: ({ row: { original: row } }) => t(`app.transactions.category.${row.category}`),
    }),
    col.accessor((row) => row.account.maskedNumber, {
      id: 'card',
      header: t('app.transactions.field.card'),
      cell: (cell) => <span className="app-mono">{cell.getValue()}</span>,
    }),
    // A real card has no cardholder: its alias stands in.
    col.accessor((row) => row.account.cardholderName || (row.account.alias ?? ''), {
      id: 'cardholder',
      header: t('app.transactions.field.cardholder'),
    }),
    col.accessor((row) => row.amount, {
      id: 'amount',
      header: t('app.transactions.field.amount'),
      meta: { className: 'app-num' },
      cell: (cell) => {
        const amount = cell.getValue();
        return format.money(amount.minor, amount.currency, amount.exponent);
      },
    }),
    col.accessor('status', {
      header: t('app.transactions.field.status'),
      cell: ({ row: { original: row } }) => (
        <>
          <TransactionStatusPill status={row.status} t={t} />
          {row.split ? ` ${t('app.transactions.splitMark')}` : ''}
          {row.disputed ? ` ${t('app.transactions.disputed')}` : ''}
          {row.exported ? ` ${t('app.transactions.exported')}` : ''}
        </>
      ),
    }),
    col.accessor('postingDate', {
      header: t('app.transactions.field.postingDate'),
      cell: (cell) => format.date(cell.getValue()),
    }),
    col.accessor('reference', { header: t('app.transactions.field.reference') }),
  ]);
}
