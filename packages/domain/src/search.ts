import { LIMITS } from './limits.ts';

/** Search and paging rules of seed 001 §5. Results are message keys (`validation.{key}` on screen). */

export type SearchProblem = 'search.required' | 'search.tooShort' | 'search.tooLong';

/** Search criteria: required, at least 2 characters once trimmed, at most 100. */
export function checkSearchCriteria(criteria: string): SearchProblem | undefined {
  const text = criteria.trim();
  if (text.length === 0) return 'search.required';
  const length = [...text].length;
  if (length < LIMITS.searchMinLength) return 'search.tooShort';
  if (length > LIMITS.searchMaxLength) return 'search.tooLong';
  return undefined;
}

/** Pages needed for `total` rows (at least 1, so an empty result still has page 1). */
export function pageCount(total: number, pageSize: number = LIMITS.searchPageSize): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / pageSize));
}

export type PageJumpProblem = 'pageJump.required' | 'pageJump.notWholeNumber' | 'pageJump.outOfRange';

/** A page jump: a whole number from 1 to the page count (seed 001 §5). Answers the page or a problem. */
export function checkPageJump(
  input: string | number,
  pages: number,
): { page: number; problem?: undefined } | { page?: undefined; problem: PageJumpProblem } {
  const text = String(input).trim();
  if (text.length === 0) return { problem: 'pageJump.required' };
  if (!/^\d{1,9}$/.test(text)) return { problem: 'pageJump.notWholeNumber' };
  const page = Number(text);
  if (page < 1 || page > pages) return { problem: 'pageJump.outOfRange' };
  return { page };
}

/** "Result set is too large" (seed 001 §8) when a search matches more rows than this. */
export function isResultTooLarge(total: number): boolean {
  return total > LIMITS.searchMaxResults;
}
