import {
  type AccountBulkMove,
  type AccountDetail,
  type AccountGroupSummary,
  type AccountStatus,
  accountGroupSchema,
  type CardApplication,
  type CardholderDetail,
  type CardholderPatch,
  cardholderSchema,
  checkCardAlias,
  checkCardExpiry,
  checkCardNumber,
  type NewAccountBody,
  type NewRealCardBody,
} from '@cardportal/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  bulkMoveAccounts,
  createAccountGroup,
  createRealCard,
  deleteRealCard,
  getAccount,
  getCardholder,
  getMyCards,
  issueAccount,
  listAccountGroups,
  moveAccount,
  renameAccountGroup,
  renameRealCard,
  searchAccounts,
  searchCardholders,
  searchRealCards,
  setAccountGroupActive,
  setAccountStatus,
  setCardholderActive,
  setCardholderReasons,
  setRealCardActive,
  unlockAccountRegistration,
  updateCardholder,
} from '../../api/accounts.ts';
import {
  approveCardApplication,
  type CardApplicationPosition,
  declineCardApplication,
  listCardApplications,
} from '../../api/card-applications.ts';
import { checkCardholderCriteria } from './criteria.ts';

export interface CardholderSearch {
  q?: string | undefined;
  status?: string | undefined;
  /** The page's cursor (useKeysetCursor): rows after or before it. */
  after?: string | undefined;
  before?: string | undefined;
  /** The order (useServerSort): absent, the list's default. */
  sort?: string | undefined;
  dir?: 'asc' | 'desc' | undefined;
}
export interface AccountSearch extends CardholderSearch {
  group?: string | undefined;
}

/** Accounts' query keys: everything under `['accounts']`, a company's under `['accounts', number]`. */
export const accountsKeys = {
  all: ['accounts'] as const,
  company: (number: string) => ['accounts', number] as const,
  cardholders: (number: string, params: CardholderSearch) =>
    ['accounts', number, 'cardholders', params] as const,
  cardholder: (number: string, id: string) => ['accounts', number, 'cardholder', id] as const,
  accounts: (number: string, params: AccountSearch) => ['accounts', number, 'accounts', params] as const,
  account: (number: string, id: string) => ['accounts', number, 'account', id] as const,
  groups: (number: string) => ['accounts', number, 'groups'] as const,
  realCards: (number: string, params: CardholderSearch) =>
    ['accounts', number, 'real-cards', params] as const,
  myCards: ['accounts', 'my-cards'] as const,
  cardApplications: (number: string) => ['accounts', number, 'card-applications'] as const,
  cardApplicationList: (number: string, position: CardApplicationPosition) =>
    ['accounts', number, 'card-applications', 'list', position] as const,
};

export const cardholderSearchQuery = (number: string, params: CardholderSearch) =>
  queryOptions({
    queryKey: accountsKeys.cardholders(number, params),
    queryFn: ({ signal }) => searchCardholders(number, params, signal),
  });

export const cardholderQuery = (number: string, id: string) =>
  queryOptions({
    queryKey: accountsKeys.cardholder(number, id),
    queryFn: ({ signal }) => getCardholder(number, id, signal),
  });

export const accountSearchQuery = (number: string, params: AccountSearch) =>
  queryOptions({
    queryKey: accountsKeys.accounts(number, params),
    queryFn: ({ signal }) => searchAccounts(number, params, signal),
  });

export const accountQuery = (number: string, id: string) =>
  queryOptions({
    queryKey: accountsKeys.account(number, id),
    queryFn: ({ signal }) => getAccount(number, id, signal),
  });

export const accountGroupsQuery = (number: string) =>
  queryOptions({
    queryKey: accountsKeys.groups(number),
    queryFn: ({ signal }) => listAccountGroups(number, signal),
  });

export const realCardSearchQuery = (number: string, params: CardholderSearch) =>
  queryOptions({
    queryKey: accountsKeys.realCards(number, params),
    queryFn: ({ signal }) => searchRealCards(number, params, signal),
  });

export const myCardsQuery = () =>
  queryOptions({ queryKey: accountsKeys.myCards, queryFn: ({ signal }) => getMyCards(signal) });

/**
 * A change to a company's cardholder, account or group: the answer goes into its cache entry, and the
 * company's lists (which show it) are read again.
 */
function useCompanyChange<V, R>(
  number: string,
  change: (v: V) => Promise<R>,
  store?: (answer: R) => readonly unknown[],
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (answer) => {
      const key = store?.(answer);
      if (key) client.setQueryData(key, answer);
      return client.invalidateQueries({
        queryKey: accountsKeys.company(number),
        predicate: (q) => !key || JSON.stringify(q.queryKey) !== JSON.stringify(key),
      });
    },
  });
}

export const useUpdateCardholder = (number: string, id: string) =>
  useCompanyChange(
    number,
    (body: CardholderPatch) => updateCardholder(number, id, body),
    (): readonly unknown[] => accountsKeys.cardholder(number, id),
  );

/** A card account issued to the cardholder: the cardholder (its accounts) and the lists are read again. */
export const useIssueAccount = (number: string) =>
  useCompanyChange(number, (body: NewAccountBody) => issueAccount(number, body), undefined);

export const useSetCardholderReasons = (number: string, id: string) =>
  useCompanyChange(
    number,
    (codes: string[]) => setCardholderReasons(number, id, codes),
    (): readonly unknown[] => accountsKeys.cardholder(number, id),
  );

export const useSetCardholderActive = (number: string, id: string) =>
  useCompanyChange(
    number,
    (active: boolean) => setCardholderActive(number, id, active),
    (): readonly unknown[] => accountsKeys.cardholder(number, id),
  );

export const useSetAccountStatus = (number: string, id: string) =>
  useCompanyChange(
    number,
    (change: { status: AccountStatus } | { statusCode: string }) => setAccountStatus(number, id, change),
    (): readonly unknown[] => accountsKeys.account(number, id),
  );

export const useMoveAccount = (number: string, id: string) =>
  useCompanyChange(
    number,
    (groupId: number) => moveAccount(number, id, groupId),
    (): readonly unknown[] => accountsKeys.account(number, id),
  );

/**
 * Unlocks self-registration with the card: the company's reads (the account among them) are read again,
 * and its self-registration settings (their locked-cards count: the organisation screens' key
 * `organisationKeys.selfRegistration`, which this folder may not import).
 */
export function useUnlockRegistration(number: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unlockAccountRegistration(number, id),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: accountsKeys.company(number) }),
        client.invalidateQueries({ queryKey: ['organisation', 'self-registration', number] }),
      ]),
  });
}

/** Several accounts into one group (the accounts list's bulk action): the company's lists are read again. */
export const useBulkMoveAccounts = (number: string) =>
  useCompanyChange(number, (body: AccountBulkMove) => bulkMoveAccounts(number, body), undefined);

export const useCreateAccountGroup = (number: string) =>
  useCompanyChange(number, (name: string): Promise<AccountGroupSummary> => createAccountGroup(number, name));

export const useRenameAccountGroup = (number: string) =>
  useCompanyChange(number, (v: { id: number; name: string }) => renameAccountGroup(number, v.id, v.name));

export const useSetAccountGroupActive = (number: string) =>
  useCompanyChange(number, (v: { id: number; active: boolean }) =>
    setAccountGroupActive(number, v.id, v.active),
  );

export const useCreateRealCard = (number: string) =>
  useCompanyChange(number, (body: NewRealCardBody) => createRealCard(number, body));

export const useRenameRealCard = (number: string) =>
  useCompanyChange(number, (v: { id: number; alias: string }) => renameRealCard(number, v.id, v.alias));

export const useSetRealCardActive = (number: string) =>
  useCompanyChange(number, (v: { id: number; active: boolean }) => setRealCardActive(number, v.id, v.active));

export const useDeleteRealCard = (number: string) =>
  useCompanyChange(number, (id: number) => deleteRealCard(number, id));

/**
 * A new real card, checked as the server checks it: the number's digits and check digit (the server also
 * checks the issuer's BINs and that it was not issued before) and the alias against that number.
 */
export const realCardFormSchema = z
  .object({ number: z.string(), alias: z.string() })
  .superRefine((v, ctx) => {
    const numberProblem = checkCardNumber(v.number);
    if (numberProblem) ctx.addIssue({ code: 'custom', path: ['number'], message: numberProblem });
    const aliasProblem = checkCardAlias(v.alias, numberProblem ? '' : v.number);
    if (aliasProblem) ctx.addIssue({ code: 'custom', path: ['alias'], message: aliasProblem });
  });

/** A new alias for a card whose number the screen never holds: the server checks it against the number. */
export const realCardAliasFormSchema = z.object({ alias: z.string() }).superRefine((v, ctx) => {
  const problem = checkCardAlias(v.alias, '');
  if (problem) ctx.addIssue({ code: 'custom', path: ['alias'], message: problem });
});

/** The cardholder and account searches: the API's criteria rule on the text field. */
export const criteriaSchema = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ q: z.string(), ...shape }).superRefine((v, ctx) => {
    const problem = checkCardholderCriteria((v as { q: string }).q);
    if (problem) ctx.addIssue({ code: 'custom', path: ['q'], message: problem });
  });

/** The cardholder edit form: the domain's name rules; the org point number is the server's to check. */
export const cardholderFormSchema = cardholderSchema.extend({ orgPoint: z.string() });

/** An account group's name (create and rename). */
export const accountGroupFormSchema = accountGroupSchema;

// ---------------------------------------------------------------------------------------------------
// New card account applications (issue 18 item 3): a company's applications to review and decide.

export const cardApplicationsQuery = (number: string, position: CardApplicationPosition) =>
  queryOptions({
    queryKey: accountsKeys.cardApplicationList(number, position),
    queryFn: ({ signal }) => listCardApplications(number, position, signal),
  });

/**
 * The approval: the card the bank issued (its number and expiry, checked as the server checks them;
 * the server adds the issuer's BINs and duplicates), the account group (its id, or '' for none) and the
 * cardholder's org point number (optional: the server knows the company's org points).
 */
export const cardApplicationApprovalFormSchema = z
  .object({ cardNumber: z.string(), expiry: z.string(), groupId: z.string(), orgPoint: z.string() })
  .superRefine((v, ctx) => {
    const number = checkCardNumber(v.cardNumber);
    if (number) ctx.addIssue({ code: 'custom', path: ['cardNumber'], message: number });
    const expiry = checkCardExpiry(v.expiry);
    if (expiry) ctx.addIssue({ code: 'custom', path: ['expiry'], message: expiry });
  });

/** Error codes of the server that belong to a field of the approval. */
export const CARD_APPLICATION_APPROVAL_CODE_FIELDS = {
  'account.number.duplicate': 'cardNumber',
  'account.number.bin': 'cardNumber',
  'cardExpiry.format': 'expiry',
  'cardholder.orgPoint.unknown': 'orgPoint',
} as const;

export type CardApplicationDecision =
  | {
      kind: 'approve';
      id: number;
      cardNumber: string;
      expiry: string;
      groupId: number | null;
      orgPoint: string | null;
    }
  | { kind: 'decline'; id: number; reason: string };

/**
 * Approves or declines an application; the answer is the application as it now is. The company's
 * applications are read again after each (a refusal too: another administrator may have decided it);
 * an approval made a cardholder and a card account, so the company's lists (accounts, cardholders, the
 * groups' counts) are read again too.
 */
export function useDecideCardApplication(number: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (decision: CardApplicationDecision): Promise<CardApplication> => {
      if (decision.kind === 'decline') return declineCardApplication(number, decision.id, decision.reason);
      const { cardNumber, expiry, groupId, orgPoint } = decision;
      return approveCardApplication(number, decision.id, { cardNumber, expiry, groupId, orgPoint });
    },
    onSettled: (answer, _error, decision) =>
      client.invalidateQueries({
        queryKey:
          decision.kind === 'approve' && answer
            ? accountsKeys.company(number)
            : accountsKeys.cardApplications(number),
      }),
  });
}

export type { AccountDetail, CardholderDetail };
