import { checkSearchCriteria, isLastFourSearch } from '@cardportal/domain';

/** Criteria: empty (all), the last four digits, or a name of 2+ characters (the people-search rule). */
export function checkCardholderCriteria(q: string): string | undefined {
  if (!q.trim() || isLastFourSearch(q)) return undefined;
  return checkSearchCriteria(q);
}
