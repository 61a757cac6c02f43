import { useSearchParams } from 'react-router';
import type { KeysetPagingProps } from './paging.tsx';

/** A keyset position as the API takes it: rows after a key, or rows before one (neither: the first page). */
export interface KeysetCursor {
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * Keeps a keyset list's position in the URL (`after=KEY` or `before=KEY`, and `n` = the page's
 * number for display), so back/forward and a shared link show the same page. Put `cursor` in the
 * query key; hand `pager(idPrefix, page)` to DataTable's `paging`; call `reset`
 * when the filters change.
 */
export function useKeysetCursor() {
  const [params, setParams] = useSearchParams();
  const after = params.get('after') ?? undefined;
  const before = after ? undefined : (params.get('before') ?? undefined);
  const pageNumber = Math.max(1, Number.parseInt(params.get('n') ?? '1', 10) || 1);

  const move = (edge: 'after' | 'before' | undefined, key: string | undefined, n: number) => {
    const next = new URLSearchParams(params);
    next.delete('after');
    next.delete('before');
    next.delete('n');
    if (edge && key !== undefined) next.set(edge, key);
    if (n > 1) next.set('n', String(n));
    setParams(next);
  };

  return {
    cursor: { after, before } satisfies KeysetCursor,
    pageNumber,
    reset: () => move(undefined, undefined, 1),
    /** DataTable's `paging` for a page the API answered (`{ prevCursor, nextCursor, pageCount? }`). */
    pager: (
      idPrefix: string,
      page: { prevCursor: string | null; nextCursor: string | null; pageCount?: number | undefined },
    ): { keyset: KeysetPagingProps } => ({
      keyset: {
        idPrefix,
        previousKey: page.prevCursor,
        nextKey: page.nextCursor,
        onPrevious: (key) => move('before', key, pageNumber - 1),
        onNext: (key) => move('after', key, pageNumber + 1),
        pageNumber,
        pageCount: page.pageCount,
      },
    }),
  };
}
