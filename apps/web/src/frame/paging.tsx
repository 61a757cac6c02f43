import { checkPageJump } from '@cardportal/domain';
import { FieldError } from '@cardportal/ui';
import { type FormEvent, useState } from 'react';
import { useApp } from '../lib/app-context.tsx';

/** Numbered pages (the API answers `page` and `pageCount`): only a list small by nature, the issuer search (docs/paging.md). */
export interface NumberedPagingProps {
  idPrefix: string;
  page: number;
  pages: number;
  onGo: (page: number) => void;
}

/**
 * Keyset paging (the API answers a page of rows after or before a key, never an offset: DESIGN §7
 * "every list pages by key"). The screen keeps the keys, e.g. with `useKeysetCursor`.
 */
export interface KeysetPagingProps {
  idPrefix: string;
  /** The key of the first row shown (for "previous"), or null on the first page. */
  previousKey: string | null;
  /** The key of the last row shown (for "next"), or null on the last page. */
  nextKey: string | null;
  onPrevious: (key: string) => void;
  onNext: (key: string) => void;
  /** The page's position when the screen counts it (1 for the first page); shown as "Page n". */
  pageNumber?: number | undefined;
  /** The pages of a result small enough to count (a search capped at LIMITS.searchMaxResults): "Page n of y". */
  pageCount?: number | undefined;
}

/** What DataTable's `paging` accepts: numbered pages, or `{ keyset: … }`. */
export type PagerProps = NumberedPagingProps | { keyset: KeysetPagingProps };

/** The pager of a result: numbered (`Paging`) or by key (`KeysetPaging`). */
export function Pager(props: PagerProps) {
  return 'keyset' in props ? <KeysetPaging {...props.keyset} /> : <Paging {...props} />;
}

/**
 * Previous / next by key (`{prefix}-previous`, `{prefix}-next`, and `{prefix}-page` with "Page n" when
 * the screen counts pages). There is no jump: a keyset API cannot seek to page n.
 */
export function KeysetPaging({
  idPrefix,
  previousKey,
  nextKey,
  onPrevious,
  onNext,
  pageNumber,
  pageCount,
}: KeysetPagingProps) {
  const { t, languageTag } = useApp();
  const number = new Intl.NumberFormat(languageTag);
  return (
    <nav className="app-paging" aria-label={t('app.people.search.paging')}>
      <button
        type="button"
        className="app-button"
        id={`${idPrefix}-previous`}
        disabled={previousKey === null}
        onClick={() => previousKey !== null && onPrevious(previousKey)}
      >
        {t('app.people.search.previous')}
      </button>
      {pageNumber !== undefined ? (
        <span id={`${idPrefix}-page`}>
          {pageCount !== undefined
            ? t(
                'app.people.search.page',
                number.format(pageNumber),
                number.format(Math.max(pageNumber, pageCount)),
              )
            : t('app.paging.pageOnly', number.format(pageNumber))}
        </span>
      ) : null}
      <button
        type="button"
        className="app-button"
        id={`${idPrefix}-next`}
        disabled={nextKey === null}
        onClick={() => nextKey !== null && onNext(nextKey)}
      >
        {t('app.people.search.next')}
      </button>
    </nav>
  );
}

/**
 * The paging of a search result (seed 001 §5): previous / next, "Page x of y" and a page jump checked
 * by the shared rule (a whole number from 1 to the page count). Shared by every paged search screen;
 * `idPrefix` keeps the element ids of each screen (`{prefix}-page`, `{prefix}-jump`).
 */
export function Paging({ idPrefix, page, pages, onGo }: NumberedPagingProps) {
  const { t, problemText, languageTag } = useApp();
  const [jump, setJump] = useState('');
  const [jumpProblem, setJumpProblem] = useState<string | undefined>();
  const number = new Intl.NumberFormat(languageTag);

  const submitJump = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPageJump(jump, pages);
    setJumpProblem(checked.problem);
    if (checked.page !== undefined) onGo(checked.page);
  };

  return (
    <nav className="app-paging" aria-label={t('app.people.search.paging')}>
      <button type="button" className="app-button" disabled={page <= 1} onClick={() => onGo(page - 1)}>
        {t('app.people.search.previous')}
      </button>
      <span id={`${idPrefix}-page`}>
        {t('app.people.search.page', number.format(page), number.format(pages))}
      </span>
      <button type="button" className="app-button" disabled={page >= pages} onClick={() => onGo(page + 1)}>
        {t('app.people.search.next')}
      </button>
      <form onSubmit={submitJump} noValidate className="app-jump">
        <label htmlFor={`${idPrefix}-jump`}>{t('app.people.search.jump')}</label>
        <input
          id={`${idPrefix}-jump`}
          inputMode="numeric"
          size={4}
          value={jump}
          onChange={(e) => setJump(e.target.value)}
          aria-invalid={jumpProblem ? true : undefined}
          aria-describedby={jumpProblem ? `${idPrefix}-jump-error` : undefined}
        />
        <button type="submit" className="app-button">
          {t('app.people.search.jumpSubmit')}
        </button>
        <FieldError
          id={`${idPrefix}-jump-error`}
          message={jumpProblem ? problemText(jumpProblem) : undefined}
        />
      </form>
    </nav>
  );
}
