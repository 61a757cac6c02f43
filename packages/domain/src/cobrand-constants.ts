import type { Cobrand } from './cobrand.ts';

/**
 * Co-brand constants without zod, so a browser bundle that needs only these does not pull in the
 * schemas of cobrand.ts (the portal's page budget, docs/portal.md). Re-exported by cobrand.ts.
 */

/** The built-in default co-brand name (spec §1: used when neither the query nor session storage has one). */
export const DEFAULT_COBRAND = 'cardportal';

/** Special sign-in button label co-brand (spec §9). */
export const SPECIAL_SIGNIN_LABEL_ABBREVIATION = 'bnc';

/**
 * A co-brand text in a page's locale: the record's per-locale text (`texts`) when it has one, else the
 * record's own (issue 22: the sign-in heading and <title> in the page's language).
 */
export function cobrandText(
  record: Pick<Cobrand, 'appName' | 'signInToLabel' | 'texts'> | null | undefined,
  locale: string,
  field: 'appName' | 'signInToLabel',
): string {
  const texts = record?.texts as
    | Record<string, Partial<Record<typeof field, string>> | undefined>
    | undefined;
  return texts?.[locale]?.[field] ?? record?.[field] ?? '';
}
