import { z } from 'zod';
import { ACCOUNT_STATUSES, type AccountStatus } from '../organisations.ts';

/**
 * Contracts of a company's cardholders, card accounts and account groups under
 * `/app/api/org/companies/:number/...` and the cardholder's own `GET /app/api/my/cards` (docs/api.md).
 * An account number never leaves the server whole: answers carry `maskedNumber` (at most the BIN and
 * the last four, packages/domain maskAccountNumber) and `last4`. Field problems are message keys.
 */

export interface CardholderRef {
  id: number;
  name1: string;
  name2: string;
}

export interface AccountGroupRef {
  id: number;
  name: string;
}

export interface OrgPointRef {
  number: string;
  name1: string;
}

export interface AccountSummary {
  id: number;
  /** At most the BIN (first 6) and the last 4 digits; the rest masked. */
  maskedNumber: string;
  last4: string;
  status: AccountStatus;
  group: AccountGroupRef | null;
  cardholder: CardholderRef | null;
}

export interface CardholderSummary extends CardholderRef {
  active: boolean;
  orgPoint: OrgPointRef | null;
  /** Accounts of the cardholder the caller may see. */
  accountCount: number;
}

export interface CardholderDetail extends CardholderSummary {
  companyNumber: string;
  accounts: AccountSummary[];
  /** The caller may edit it and change its status. */
  canModify: boolean;
  /** A system administrator's view: shown with the read-only notice. */
  readOnly: boolean;
}

export interface AccountDetail extends AccountSummary {
  companyNumber: string;
  canModify: boolean;
  readOnly: boolean;
}

/** A page of a search (the paging of seed 001 §5, like the people search). */
export interface PagedList<T> {
  rows: T[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
  canModify: boolean;
  readOnly: boolean;
}

export type CardholderList = PagedList<CardholderSummary>;
export type AccountList = PagedList<AccountSummary>;

export interface AccountGroupSummary extends AccountGroupRef {
  active: boolean;
  /** Accounts in the group that are not Closed. */
  activeAccounts: number;
}

export interface AccountGroupList {
  rows: AccountGroupSummary[];
  canModify: boolean;
  readOnly: boolean;
}

/** `GET /app/api/my/cards`: a cardholder's own record and accounts (read-only). */
export interface MyCards {
  cardholder: CardholderRef | null;
  companyNumber: string | null;
  accounts: AccountSummary[];
}

/** `PATCH .../cardholders/:id`: names and the org point (number, in the same company). */
export const cardholderPatchSchema = z.object({
  name1: z.string().optional(),
  name2: z.string().optional(),
  orgPoint: z.string().optional(),
});
export type CardholderPatch = z.infer<typeof cardholderPatchSchema>;

/** `PUT .../accounts/:id/status`. */
export const accountStatusBodySchema = z.object({
  status: z.enum(ACCOUNT_STATUSES, { error: 'account.status.invalid' }),
});
export type AccountStatusBody = z.infer<typeof accountStatusBodySchema>;

/** `PUT .../accounts/:id/group`: move to another account group of the same company. */
export const accountGroupMoveSchema = z.object({
  groupId: z.number({ error: 'account.group.required' }).int({ error: 'account.group.required' }),
});
export type AccountGroupMove = z.infer<typeof accountGroupMoveSchema>;

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
