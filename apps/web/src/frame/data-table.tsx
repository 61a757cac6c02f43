import {
  type Column,
  type ColumnDef,
  columnVisibilityFeature,
  createColumnHelper,
  createSortedRowModel,
  type RowData,
  rowSortingFeature,
  type SortingState,
  sortFn_alphanumeric,
  sortFn_basic,
  sortFn_datetime,
  sortFn_text,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { type ReactNode, useMemo, useState } from 'react';
import { useApp } from '../lib/app-context.tsx';
import { ActionMenu, ChoiceMenu, type MenuAction } from './aria/menu.tsx';
import { EmptyState } from './empty-state.tsx';
import { Pager, type PagerProps } from './paging.tsx';
import { TableWrap } from './table-wrap.tsx';

/** What a column may say about itself beyond TanStack's definition. */
export interface DataColumnMeta {
  /**
   * The column's name as plain text: the column-choice menu lists it. Needed when `header` is not a
   * plain string.
   */
  label?: string;
  /** The cells of this column name their row: rendered as `<th scope="row">` (one column per table). */
  rowHeader?: boolean;
  /** A class on the column's `th` and `td` (e.g. `app-num` right-aligns amounts). */
  className?: string;
}

/**
 * The features every grid of the application registers (TanStack Table v9 registers features
 * explicitly): sorting (client-side when the whole list is loaded, by the server otherwise) and
 * column visibility for the column-choice menu.
 */
export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: {
    alphanumeric: sortFn_alphanumeric,
    text: sortFn_text,
    datetime: sortFn_datetime,
    basic: sortFn_basic,
  },
  columnVisibilityFeature,
  columnMeta: {} as DataColumnMeta,
});
export type DataTableFeatures = typeof dataTableFeatures;

/** A column of a DataTable (TanStack's ColumnDef for the application's features). */
// biome-ignore lint/suspicious/noExplicitAny: each column keeps its own value type
export type DataColumn<T extends RowData> = ColumnDef<DataTableFeatures, T, any>;
export type { SortingState };

/** The column helper of a grid's row type: `const col = dataColumns<AuditRow>()`. */
export const dataColumns = <T extends RowData>() => createColumnHelper<DataTableFeatures, T>();

/** Row actions: a menu button in the last column of each row. */
export interface RowActions<T> {
  /** The trigger's accessible name, naming the row ("Actions for admin01"); it starts with "Actions". */
  label: (row: T) => string;
  /** The row's actions; an empty list leaves the row without a button. */
  actions: (row: T) => MenuAction[];
}

export interface DataTableProps<T extends RowData> {
  /** The table element's id (e2e specs use it: `#audit-results tbody tr`); caption `{id}-caption`. */
  id: string;
  caption: string;
  /** Stable columns (module scope or `useMemo`): a new array each render rebuilds the table. */
  columns: DataColumn<T>[];
  /** The rows; undefined while nothing has arrived yet. */
  data: readonly T[] | undefined;
  getRowId: (row: T) => string;
  /** A fetch is under way: the table is marked busy and a status line says so. */
  loading?: boolean;
  /** Shown instead of the table when `data` is empty (`{id}-empty`). */
  empty?: ReactNode;
  /**
   * Server sorting: the order the rows arrive in (put it in the query key and the URL). With
   * `onSortingChange`, sortable headers ask the server for another order; without it, the order is
   * fixed by the API and only shown (`aria-sort`, no sort buttons). Without `sorting`, the table sorts
   * the rows it has: only for a complete list, never for one page of many.
   */
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  /**
   * With server sorting: the columns (ids) the server sorts by; only their headers become sort
   * buttons (frame/use-server-sort.ts hands all three over).
   */
  sortable?: readonly string[];
  /** Client sorting's starting order. */
  initialSorting?: SortingState;
  /** The column-choice menu (`{id}-columns`): columns with `enableHiding: false` always show. */
  columnChoice?: boolean;
  /** Columns hidden at first. */
  initiallyHidden?: readonly string[];
  rowActions?: RowActions<T>;
  /** The pager: numbered pages or `{ keyset: … }` (frame/paging.tsx). */
  paging?: PagerProps | undefined;
  /** Controls shown above the table beside the column menu (an export link, a create button). */
  toolbar?: ReactNode;
  /** Rows the user may choose for a bulk action: a checkbox first in each row, one for the page in the header. */
  selection?: RowSelection<T> | undefined;
}

/** The chosen rows (by row id) of a grid that offers bulk actions (issue 20 item 3). */
export interface RowSelection<T> {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** The row checkbox's accessible name, naming the row ("Select admin01"). */
  label: (row: T) => string;
  /** The header checkbox's accessible name ("Select all on this page"). */
  allLabel: string;
}

/** The header's checkbox: checked when every row of the page is chosen, mixed when some are. */
function SelectAll({
  checked,
  mixed,
  label,
  onChange,
}: {
  checked: boolean;
  mixed: boolean;
  label: string;
  onChange: (checked: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      className="app-table__select"
      aria-label={label}
      checked={checked}
      ref={(node) => {
        if (node) node.indeterminate = mixed;
      }}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

const EMPTY: never[] = [];

const ariaSort = (sorted: false | 'asc' | 'desc', canSort: boolean) =>
  sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined;

/** A column's plain-text name for the column menu. */
function columnLabel<T extends RowData>(column: Column<DataTableFeatures, T, unknown>): string {
  const def = column.columnDef;
  return def.meta?.label ?? (typeof def.header === 'string' ? def.header : column.id);
}

/**
 * The application's grid, on TanStack Table v9: a captioned table in a scrollable, focusable region;
 * sortable headers are buttons with `aria-sort` on their `th`; the column-choice menu; row actions as
 * a menu per row; loading, empty and paged states. Markup and styles are ours (styles.css `.app-table`).
 */
export function DataTable<T extends RowData>({
  id,
  caption,
  columns,
  data,
  getRowId,
  loading = false,
  empty,
  sorting,
  onSortingChange,
  sortable,
  initialSorting,
  columnChoice = false,
  initiallyHidden,
  rowActions,
  paging,
  toolbar,
  selection,
}: DataTableProps<T>) {
  const { t } = useApp();
  const manual = sorting !== undefined;
  const [clientSorting, setClientSorting] = useState<SortingState>(initialSorting ?? []);
  const [visibility, setVisibility] = useState<Record<string, boolean>>(() =>
    Object.fromEntries((initiallyHidden ?? []).map((column) => [column, false])),
  );
  // Server sorting: a header sorts only when the server sorts by its column.
  const sortableColumns = useMemo(
    () =>
      manual && sortable
        ? columns.map((column) => {
            const columnId = column.id ?? ('accessorKey' in column ? String(column.accessorKey) : '');
            return { ...column, enableSorting: sortable.includes(columnId) };
          })
        : columns,
    [columns, manual, sortable],
  );
  const table = useTable({
    features: dataTableFeatures,
    columns: sortableColumns,
    data: (data ?? EMPTY) as T[],
    getRowId: (row: T) => getRowId(row),
    manualSorting: manual,
    enableSorting: !manual || onSortingChange !== undefined,
    enableSortingRemoval: false,
    enableMultiSort: false,
    // A new column sorts ascending first, whatever its values (the server's orders start there).
    sortDescFirst: false,
    state: { sorting: manual ? (sorting ?? []) : clientSorting, columnVisibility: visibility },
    onSortingChange: (updater) => {
      const current = manual ? (sorting ?? []) : clientSorting;
      const next = typeof updater === 'function' ? updater(current) : updater;
      if (manual) onSortingChange?.(next);
      else setClientSorting(next);
    },
    onColumnVisibilityChange: (updater) =>
      setVisibility((current) => (typeof updater === 'function' ? updater(current) : updater)),
  });

  const captionId = `${id}-caption`;
  const rows = table.getRowModel().rows;
  const hideable = table.getAllLeafColumns().filter((column) => column.getCanHide());
  const isEmpty = data !== undefined && data.length === 0 && !loading;
  const pageIds = rows.map((row) => row.id);
  const chosenOnPage = selection ? pageIds.filter((rowId) => selection.selected.has(rowId)).length : 0;
  const choose = (ids: string[], on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const rowId of ids) {
      if (on) next.add(rowId);
      else next.delete(rowId);
    }
    selection.onChange(next);
  };

  return (
    <div className="app-grid">
      {toolbar || (columnChoice && hideable.length > 0) ? (
        <div className="app-grid__toolbar">
          {toolbar}
          {columnChoice && hideable.length > 0 ? (
            <ChoiceMenu
              id={`${id}-columns`}
              label={t('app.table.columns')}
              small
              // At least one column stays: one that cannot be hidden, or the last one ticked.
              minimum={hideable.length < table.getAllLeafColumns().length ? 0 : 1}
              choices={hideable.map((column) => ({ id: column.id, label: columnLabel(column) }))}
              selected={hideable.filter((column) => column.getIsVisible()).map((column) => column.id)}
              onChange={(shown) =>
                setVisibility(Object.fromEntries(hideable.map((c) => [c.id, shown.includes(c.id)])))
              }
            />
          ) : null}
        </div>
      ) : null}
      {loading ? (
        <p className="app-loading" role="status" id={`${id}-loading`}>
          {t('common.loading')}
        </p>
      ) : null}
      {isEmpty ? (
        empty ? (
          <EmptyState id={`${id}-empty`}>{empty}</EmptyState>
        ) : null
      ) : rows.length > 0 ? (
        <TableWrap captionId={captionId}>
          <table className="app-table" id={id} aria-busy={loading || undefined}>
            <caption id={captionId}>{caption}</caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {selection ? (
                    <th scope="col" className="app-table__select-cell">
                      <SelectAll
                        checked={pageIds.length > 0 && chosenOnPage === pageIds.length}
                        mixed={chosenOnPage > 0 && chosenOnPage < pageIds.length}
                        label={selection.allLabel}
                        onChange={(on) => choose(pageIds, on)}
                      />
                    </th>
                  ) : null}
                  {group.headers.map((header) => {
                    const column = header.column;
                    const canSort = column.getCanSort();
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        colSpan={header.colSpan > 1 ? header.colSpan : undefined}
                        className={column.columnDef.meta?.className}
                        aria-sort={ariaSort(column.getIsSorted(), canSort)}
                      >
                        {header.isPlaceholder ? null : canSort ? (
                          <button
                            type="button"
                            className="app-sort"
                            onClick={column.getToggleSortingHandler()}
                          >
                            <table.FlexRender header={header} />
                            <span className="app-sort__mark" aria-hidden="true" />
                          </button>
                        ) : (
                          <table.FlexRender header={header} />
                        )}
                      </th>
                    );
                  })}
                  {rowActions ? (
                    <th scope="col" className="app-table__actions">
                      {t('app.table.actions')}
                    </th>
                  ) : null}
                </tr>
              ))}
            </thead>
            <tbody>
              {rows.map((row) => {
                const actions = rowActions?.actions(row.original) ?? [];
                return (
                  <tr key={row.id} data-selected={selection?.selected.has(row.id) ? '' : undefined}>
                    {selection ? (
                      <td className="app-table__select-cell">
                        <input
                          type="checkbox"
                          className="app-table__select"
                          aria-label={selection.label(row.original)}
                          checked={selection.selected.has(row.id)}
                          onChange={(event) => choose([row.id], event.target.checked)}
                        />
                      </td>
                    ) : null}
                    {row.getVisibleCells().map((cell) => {
                      const meta = cell.column.columnDef.meta;
                      return meta?.rowHeader ? (
                        <th key={cell.id} scope="row" className={meta.className}>
                          <table.FlexRender cell={cell} />
                        </th>
                      ) : (
                        <td key={cell.id} className={meta?.className}>
                          <table.FlexRender cell={cell} />
                        </td>
                      );
                    })}
                    {rowActions ? (
                      <td className="app-table__actions">
                        {actions.length > 0 ? (
                          <ActionMenu
                            label={t('app.table.actions')}
                            ariaLabel={rowActions.label(row.original)}
                            small
                            actions={actions}
                          />
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      {paging && rows.length > 0 ? <Pager {...paging} /> : null}
    </div>
  );
}
