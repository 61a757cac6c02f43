import { z } from 'zod';
import { ACCOUNT_STATUSES, type AccountStatus } from '../organisations.ts';
import { keysetPageFields, keysetQueryFields, type ListOrder, lenient, sortQueryFields } from './common.ts';

/**
 * Contracts of a company's cardholders, card accounts and account groups under
 * `/app/api/org/companies/:number/...` and the cardholder's own `GET /app/api/my/cards` (docs/api.md).
 * An account number never leaves the server whole: answers carry `maskedNumber` (at most the BIN and
 * the last four, packages/domain maskAccountNumber) and `last4`. Field problems are message keys.
 */

export const cardholderRefSchema = z.object({ id: z.number().int(), name1: z.string(), name2: z.string() });
export type CardholderRef = z.infer<typeof cardholderRefSchema>;

export const accountGroupRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type AccountGroupRef = z.infer<typeof accountGroupRefSchema>;

export const orgPointRefSchema = z.object({ number: z.string(), name1: z.string() });
export type OrgPointRef = z.infer<typeof orgPointRefSchema>;

export const accountSummarySchema = z
  .object({
    id: z.number().int(),
    /** At most the BIN (first 6) and the last 4 digits; the rest masked. */
    maskedNumber: z.string().describe('At most the BIN (first 6) and the last 4 digits; the rest masked'),
    last4: z.string(),
    status: z.enum(ACCOUNT_STATUSES),
    /** The issuer's account status code set with the status (issue 15 item 1), null when none. */
    statusCode: z.object({ code: z.string(), description: z.string() }).nullable(),
    group: accountGroupRefSchema.nullable(),
    cardholder: cardholderRefSchema.nullable(),
    /** A real card's alias (a company card account without a cardholder), else null. */
    alias: z.string().nullable(),
  })
  .meta({ id: 'AccountSummary' });
export type AccountSummary = z.infer<typeof accountSummarySchema>;

export const cardholderSummarySchema = cardholderRefSchema
  .extend({
    active: z.boolean(),
    orgPoint: orgPointRefSchema.nullable(),
    /** Accounts of the cardholder the caller may see. */
    accountCount: z.number().int(),
  })
  .meta({ id: 'CardholderSummary' });
export type CardholderSummary = z.infer<typeof cardholderSummarySchema>;

export const cardholderDetailSchema = cardholderSummarySchema
  .extend({
    companyNumber: z.string(),
    accounts: z.array(accountSummarySchema),
    /** The caller may edit it and change its status. */
    canModify: z.boolean(),
    /** A system administrator's view: shown with the read-only notice. */
    readOnly: z.boolean(),
    /** Its maintenance reason codes (at most 10), with their descriptions. */
    reasons: z.array(z.object({ code: z.string(), description: z.string() })),
    /** The issuer's maintenance reason codes to choose from (when the caller may modify). */
    reasonChoices: z.array(z.object({ code: z.string(), description: z.string() })),
  })
  .meta({ id: 'CardholderDetail' });
export type CardholderDetail = z.infer<typeof cardholderDetailSchema>;

export const accountDetailSchema = accountSummarySchema
  .extend({
    companyNumber: z.string(),
    canModify: z.boolean(),
    readOnly: z.boolean(),
    /** The issuer's account status codes to choose from (when the caller may modify), each with its status. */
    statusCodes: z.array(
      z.object({ code: z.string(), description: z.string(), status: z.enum(ACCOUNT_STATUSES) }),
    ),
    /** The card's expiry as printed on it (`MM/YY`), null when not known. */
    expiry: z.string().nullable(),
    /** Cardholder self-registration with this card locked after failed attempts (an administrator unlocks). */
    registrationLocked: z.boolean(),
  })
  .meta({ id: 'AccountDetail' });
export type AccountDetail = z.infer<typeof accountDetailSchema>;

/**
 * A page of a search, by key (docs/paging.md): the cursors of the next and previous pages, and the
 * matches (at most LIMITS.searchMaxResults, else "Result set is too large").
 */
export interface PagedList<T> {
  rows: T[];
  nextCursor: string | null;
  prevCursor: string | null;
  total: number;
  pageCount: number;
  pageSize: number;
  canModify: boolean;
  readOnly: boolean;
}
const pagedListSchema = <T extends z.ZodType>(row: T) =>
  z.object({
    rows: z.array(row),
    ...keysetPageFields,
    total: z.number().int(),
    pageCount: z.number().int(),
    pageSize: z.number().int(),
    canModify: z.boolean(),
    readOnly: z.boolean(),
  });

export const cardholderListSchema = pagedListSchema(cardholderSummarySchema).meta({ id: 'CardholderList' });
export type CardholderList = PagedList<CardholderSummary>;
export const accountListSchema = pagedListSchema(accountSummarySchema).meta({ id: 'AccountList' });
export type AccountList = PagedList<AccountSummary>;

export const accountGroupSummarySchema = accountGroupRefSchema
  .extend({
    active: z.boolean(),
    /** Accounts in the group that are not Closed. */
    activeAccounts: z.number().int(),
  })
  .meta({ id: 'AccountGroupSummary' });
export type AccountGroupSummary = z.infer<typeof accountGroupSummarySchema>;

export const accountGroupListSchema = z
  .object({ rows: z.array(accountGroupSummarySchema), canModify: z.boolean(), readOnly: z.boolean() })
  .meta({ id: 'AccountGroupList' });
export type AccountGroupList = z.infer<typeof accountGroupListSchema>;

/** `GET /app/api/my/cards`: a cardholder's own record and accounts (read-only). */
export const myCardsSchema = z
  .object({
    cardholder: cardholderRefSchema.nullable(),
    companyNumber: z.string().nullable(),
    accounts: z.array(accountSummarySchema),
  })
  .meta({ id: 'MyCards' });
export type MyCards = z.infer<typeof myCardsSchema>;

/** The cardholder search's orders: by name (name 2, name 1), or status (active first) then name. */
export const CARDHOLDER_LIST_ORDER = {
  sorts: ['name', 'status'],
  default: { sort: 'name', dir: 'asc' },
} as const satisfies ListOrder<string>;
export type CardholderSort = (typeof CARDHOLDER_LIST_ORDER.sorts)[number];

/** The account search's orders: by cardholder (or real card alias), last four, or status then cardholder. */
export const ACCOUNT_LIST_ORDER = {
  sorts: ['cardholder', 'maskedNumber', 'status'],
  default: { sort: 'cardholder', dir: 'asc' },
} as const satisfies ListOrder<string>;
export type AccountSort = (typeof ACCOUNT_LIST_ORDER.sorts)[number];

/** The real cards' orders: by alias, or status (active first) then alias. */
export const REAL_CARD_LIST_ORDER = {
  sorts: ['alias', 'status'],
  default: { sort: 'alias', dir: 'asc' },
} as const satisfies ListOrder<string>;
export type RealCardSort = (typeof REAL_CARD_LIST_ORDER.sorts)[number];

/** `GET .../cardholders?q=&status=&sort=&dir=&after=|before=` and `GET .../accounts?q=&group=&status=&sort=&dir=&after=|before=`. */
export const cardholderSearchQuerySchema = z.object({
  q: lenient(z.string()).describe(
    'Exactly 4 digits: the last four of a visible account; else a name (2–100)',
  ),
  status: lenient(z.string()).describe('active or inactive'),
  ...sortQueryFields(CARDHOLDER_LIST_ORDER),
  ...keysetQueryFields,
});
export const accountSearchQuerySchema = cardholderSearchQuerySchema.extend({
  group: lenient(z.string()).describe('An account group id'),
  status: lenient(z.string()).describe('Active, Suspended or Closed'),
  ...sortQueryFields(ACCOUNT_LIST_ORDER),
});

/** `GET .../cardholders.csv` and `.../accounts.csv`: every match of the search (not one page), as CSV. */
export const cardholderExportQuerySchema = cardholderSearchQuerySchema.omit({ after: true, before: true });
export const accountExportQuerySchema = accountSearchQuerySchema.omit({ after: true, before: true });
export const CARDHOLDER_CSV_COLUMNS = ['name1', 'name2', 'orgPoint', 'accounts', 'status'] as const;
/** The card number masked (first six, last four), as the list shows it: never the full number. */
export const ACCOUNT_CSV_COLUMNS = [
  'maskedNumber',
  'cardholder',
  'realCardAlias',
  'group',
  'status',
] as const;

/** `PATCH .../cardholders/:id`: names and the org point (number, in the same company). */
export const cardholderPatchSchema = z.object({
  name1: z.string().optional(),
  name2: z.string().optional(),
  orgPoint: z.string().optional(),
});
export type CardholderPatch = z.infer<typeof cardholderPatchSchema>;

/**
 * `PUT .../accounts/:id/status`: a status, or one of the issuer's account status codes (which sets the
 * status it maps to; given both, they must agree).
 */
export const accountStatusBodySchema = z.object({
  status: z.enum(ACCOUNT_STATUSES, { error: 'account.status.invalid' }).optional(),
  statusCode: z.string().max(20, { error: 'account.statusCode.unknown' }).nullish(),
});
export type AccountStatusBody = z.infer<typeof accountStatusBodySchema>;

/** `PUT .../accounts/:id/group`: move to another account group of the same company. */
export const accountGroupMoveSchema = z.object({
  groupId: z.number({ error: 'account.group.required' }).int({ error: 'account.group.required' }),
});
export type AccountGroupMove = z.infer<typeof accountGroupMoveSchema>;

/**
 * `POST .../accounts/bulk-move` (issue 20 item 3, "move to a group"): the accounts chosen in the list
 * (at most a page of them) into one active group of the company. The group is checked once (400 on
 * `groupId`); each account is then moved, checked and audited as the single move is, and the answer
 * says what became of each.
 */
export const ACCOUNT_BULK_MAX = 50;
export const accountBulkMoveSchema = z.object({
  groupId: z.number({ error: 'account.group.required' }).int({ error: 'account.group.required' }),
  accountIds: z
    .array(z.number().int().positive().safe(), { error: 'bulk.accountIds.invalid' })
    .min(1, { error: 'bulk.accountIds.none' })
    .max(ACCOUNT_BULK_MAX, { error: 'bulk.accountIds.tooMany' }),
});
export type AccountBulkMove = z.infer<typeof accountBulkMoveSchema>;
export const accountBulkResultSchema = z
  .object({
    results: z.array(
      z.object({
        id: z.number().int(),
        /** done: moved; unchanged: already in the group; refused: `code` says why (a `validation.` key). */
        outcome: z.enum(['done', 'unchanged', 'refused']),
        code: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'AccountBulkResult' });
export type AccountBulkResult = z.infer<typeof accountBulkResultSchema>;

/** `POST .../account-groups` and `PATCH .../account-groups/:id`. */
export const accountGroupBodySchema = z.object({ name: z.string({ error: 'accountGroup.name.required' }) });
export type AccountGroupBody = z.infer<typeof accountGroupBodySchema>;

/**
 * Account status changes: Active ⇄ Suspended, either → Closed; Closed is final (the inactive form of an
 * account, never reopened or deleted). Answers the refusal's message key, or undefined when allowed.
 */
export function checkAccountStatusChange(from: AccountStatus, to: AccountStatus): string | undefined {
  if (from === to) return undefined;
  if (from === 'Closed') return 'account.status.closedIsFinal';
  return undefined;
}

/** Search criteria of the cardholder and account searches: exactly four digits are the last four. */
export function isLastFourSearch(q: string): boolean {
  return /^\d{4}$/.test(q.trim());
}

/**
 * `POST .../accounts`: a card account issued to a cardholder of the company (issue 15 item 1): the card
 * number (12–19 digits, Luhn, within the issuer's card BINs, not issued before), optionally its group.
 */
export const newAccountBodySchema = z.object({
  cardholderId: z
    .number({ error: 'account.cardholder.required' })
    .int({ error: 'account.cardholder.required' })
    .positive({ error: 'account.cardholder.required' }),
  number: z.string({ error: 'account.number.required' }).max(40, { error: 'account.number.format' }),
  /** The card's expiry as printed on it, `MM/YY` (packages/domain normaliseCardExpiry); optional. */
  expiry: z.string({ error: 'cardExpiry.format' }).max(10, { error: 'cardExpiry.format' }).nullish(),
  groupId: z
    .number({ error: 'account.group.unknown' })
    .int({ error: 'account.group.unknown' })
    .positive({ error: 'account.group.unknown' })
    .nullish(),
});
export type NewAccountBody = z.infer<typeof newAccountBodySchema>;

/** `PUT .../cardholders/:id/reasons`: its maintenance reason codes, replaced (at most 10, the issuer's). */
export const cardholderReasonsBodySchema = z.object({
  codes: z
    .array(z.string().max(20, { error: 'cardholder.reasons.unknown' }), {
      error: 'cardholder.reasons.tooMany',
    })
    .max(50, { error: 'cardholder.reasons.tooMany' }),
});
export type CardholderReasonsBody = z.infer<typeof cardholderReasonsBodySchema>;

/**
 * Real cards (issue 15 item 1, seed 001 "Real card maintenance with alias"): a company's card account
 * without a cardholder, known by its alias (checkCardAlias), under `.../companies/:number/real-cards`.
 * `inUse`: transactions are posted to it, so deleting it marks it inactive instead (seed 001 §4).
 */
export const realCardSummarySchema = z
  .object({
    id: z.number().int(),
    alias: z.string(),
    maskedNumber: z.string().describe('At most the BIN (first 6) and the last 4 digits; the rest masked'),
    last4: z.string(),
    active: z.boolean(),
    /** The status of the card account behind it. */
    accountStatus: z.enum(ACCOUNT_STATUSES),
    accountId: z.number().int(),
    inUse: z.boolean(),
  })
  .meta({ id: 'RealCardSummary' });
export type RealCardSummary = z.infer<typeof realCardSummarySchema>;

export const realCardListSchema = pagedListSchema(realCardSummarySchema).meta({ id: 'RealCardList' });
export type RealCardList = PagedList<RealCardSummary>;

/** `GET .../real-cards?q=&status=&after=|before=`: alias text (2–100) or the last four; active or inactive. */
export const realCardSearchQuerySchema = cardholderSearchQuerySchema.extend({
  q: lenient(z.string()).describe('Exactly 4 digits: the last four; else part of the alias (2–100)'),
  ...sortQueryFields(REAL_CARD_LIST_ORDER),
});

/** `GET .../real-cards.csv`: every match of the search (not one page), as CSV; numbers masked. */
export const realCardExportQuerySchema = realCardSearchQuerySchema.omit({ after: true, before: true });
export const REAL_CARD_CSV_COLUMNS = ['alias', 'maskedNumber', 'accountStatus', 'inUse', 'status'] as const;

/** `POST .../real-cards`: the card number (the account rule: 12–19 digits, Luhn, BINs, not issued) and its alias. */
export const newRealCardBodySchema = z.object({
  number: z.string({ error: 'account.number.required' }).max(40, { error: 'account.number.format' }),
  alias: z.string({ error: 'card.alias.required' }).max(200, { error: 'card.alias.tooLong' }),
});
export type NewRealCardBody = z.infer<typeof newRealCardBodySchema>;

/** `PATCH .../real-cards/:id`: a new alias. */
export const realCardAliasBodySchema = z.object({
  alias: z.string({ error: 'card.alias.required' }).max(200, { error: 'card.alias.tooLong' }),
});
export type RealCardAliasBody = z.infer<typeof realCardAliasBodySchema>;

/** `DELETE .../real-cards/:id`: deleted, or — in use — marked inactive instead (the card as it now is). */
export const realCardDeleteResultSchema = z
  .object({
    outcome: z.enum(['deleted', 'deactivated']),
    realCard: realCardSummarySchema.nullable(),
  })
  .meta({ id: 'RealCardDeleteResult' });
export type RealCardDeleteResult = z.infer<typeof realCardDeleteResultSchema>;
