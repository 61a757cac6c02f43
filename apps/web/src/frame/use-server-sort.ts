import { chosenOrder, type ListOrder, SORT_DIRECTIONS, type SortDirection } from '@cardportal/domain';
import { useSearchParams } from 'react-router';
import type { SortingState } from './data-table.tsx';

/**
 * A server-sorted list's order, kept in the URL (`sort`, `dir`; absent: the list's default), so back,
 * forward and a shared link show the same order (issue 20 item 3, docs/paging.md "Sorting"). A new
 * order starts at the first page: a cursor belongs to the order it was taken in.
 *
 * - `query`: what the API takes (empty for the default order) — put it in the query key.
 * - `table`: DataTable's `sorting`, `onSortingChange` and `sortable` (the columns a header button sorts).
 */
export function useServerSort<S extends string>(order: ListOrder<S>) {
  const [params, setParams] = useSearchParams();
  const sort = order.sorts.find((s) => s === params.get('sort'));
  const dir = SORT_DIRECTIONS.find((d) => d === params.get('dir'));
  const chosen = chosenOrder(order, { sort, dir });
  const isDefault = (by: S, direction: SortDirection) =>
    by === order.default.sort && direction === order.default.dir;
  const sorting: SortingState = [{ id: chosen.sort, desc: chosen.dir === 'desc' }];

  const onSortingChange = (next: SortingState) => {
    const first = next[0];
    const by = order.sorts.find((s) => s === first?.id);
    if (!first || !by) return;
    const direction: SortDirection = first.desc ? 'desc' : 'asc';
    const search = new URLSearchParams(params);
    for (const key of ['after', 'before', 'n', 'page', 'sort', 'dir']) search.delete(key);
    if (!isDefault(by, direction)) {
      search.set('sort', by);
      search.set('dir', direction);
    }
    setParams(search);
  };

  /** Carries the chosen order onto a new URL query (a new search or page keeps the order). */
  const keep = (search: URLSearchParams): URLSearchParams => {
    for (const key of ['sort', 'dir']) {
      const value = params.get(key);
      if (value) search.set(key, value);
    }
    return search;
  };

  return {
    chosen,
    keep,
    query: isDefault(chosen.sort, chosen.dir) ? {} : { sort: chosen.sort, dir: chosen.dir },
    table: { sorting, onSortingChange, sortable: order.sorts as readonly string[] },
  };
}
