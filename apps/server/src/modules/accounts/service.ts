import {
  ACCOUNT_CSV_COLUMNS,
  ACCOUNT_LIST_ORDER,
  type AccountBulkMove,
  type AccountBulkResult,
  type AccountDetail,
  type AccountGroupList,
  type AccountGroupSummary,
  type AccountList,
  type AccountSort,
  type AccountStatus,
  type AccountStatusBody,
  type AccountSummary,
  type Action,
  accountGroupSchema,
  CARDHOLDER_CSV_COLUMNS,
  CARDHOLDER_LIST_ORDER,
  type CardholderDetail,
  type CardholderList,
  type CardholderPatch,
  type CardholderSort,
  type CardholderSummary,
  cardholderSchema,
  checkAccountStatusChange,
  checkCardholderReasons,
  checkSearchCriteria,
  chosenOrder,
  isAccountDataReadOnly,
  isLastFourSearch,
  isResultTooLarge,
  LIMITS,
  type MyCards,
  maskCardParts,
  may,
  type NewAccountBody,
  normaliseIssuerCode,
  pageCount,
  type SortDirection,
  SYSTEM_STATUSES,
  toFieldErrors,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, type AuditChanges, auditAdmin, diffChanges } from '../../kernel/audit.ts';
import type { CardVault } from '../../kernel/card-vault.ts';
import type { KeysetPage, PageRequest } from '../../kernel/paging.ts';
import { csvDocument, csvFilename } from '../../kernel/spreadsheet.ts';
import { existingIssuerCodes, findIssuerCode, issuerCodesOf } from '../issuers/index.ts';
import { issueAccount } from './issue.ts';
import { companyInScope, idOf } from './lookup.ts';
import {
  type AccountRow,
  accountsOfCardholder,
  type CardholderRow,
  type CompanyRef,
  cardFacts,
  cardholderWithCompany,
  countAccounts,
  countCardholders,
  findAccount,
  findCardholder,
  findGroup,
  findOrgPoint,
  type GroupRow,
  groupNameTaken,
  insertAccountGroup,
  listGroups,
  lockCompany,
  openAccountsOf,
  openExpenseReportsOf,
  pageOfAccounts,
  pageOfCardholders,
  reasonsOfCardholder,
  replaceCardholderReasons,
  updateAccount,
  updateAccountGroup,
  updateCardholder,
  userOfCardholder,
  visibleAccountsOfCardholder,
} from './repository.ts';

/** The card number as it may be shown (BIN and last four), from the parts kept in the clear. */
export function maskedNumberOf(
  row: Pick<AccountRow, 'bin' | 'numberLength' | 'last4'> & { accountDigits?: number | undefined },
): string {
  if (row.bin === null || row.numberLength === null) return '*'.repeat(12);
  return maskCardParts(
    { bin: row.bin, last4: row.last4, length: row.numberLength },
    { lastDigits: row.accountDigits },
  );
}

/** The one place an account row becomes an answer: the full number is masked here, never passed on. */
export function toAccount(row: AccountRow): AccountSummary {
  return {
    id: row.id,
    maskedNumber: maskedNumberOf(row),
    last4: row.last4,
    status: row.status as AccountStatus,
    statusCode:
      row.statusCode !== null ? { code: row.statusCode, description: row.statusCodeDescription ?? '' } : null,
    group: row.groupId !== null ? { id: row.groupId, name: row.groupName ?? '' } : null,
    cardholder:
      row.cardholderId !== null
        ? { id: row.cardholderId, name1: row.cardholderName1 ?? '', name2: row.cardholderName2 ?? '' }
        : null,
    alias: row.realCardAlias,
  };
}

const toCardholder = (row: CardholderRow): CardholderSummary => ({
  id: row.id,
  name1: row.name1,
  name2: row.name2,
  active: row.active,
  orgPoint: row.orgPointNumber ? { number: row.orgPointNumber, name1: row.orgPointName ?? '' } : null,
  accountCount: Number(row.accountCount),
});

const toGroup = (row: GroupRow): AccountGroupSummary => ({
  id: row.id,
  name: row.name,
  active: row.active,
  activeAccounts: Number(row.activeAccounts),
});

const notFound = (what: 'cardholder' | 'account' | 'accountGroup') =>
  new AppError('notFound', `${what}.notFound`, { message: `No such ${what}` });

export interface SearchQuery {
  q?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
  dir?: SortDirection | undefined;
}

export class AccountService {
  constructor(private readonly db: Db) {}

  private flags(caller: Caller, action: Action) {
    return { canModify: may(caller, action), readOnly: isAccountDataReadOnly(caller.type) };
  }

  /** The company by number inside the caller's scope; 404 alike for unknown and out of scope. */
  private company(db: Executor, caller: Caller, number: string): Promise<CompanyRef> {
    return companyInScope(db, caller, number);
  }

  private audit(
    db: Executor,
    caller: Caller,
    event: AdminAuditEvent,
    entity: string,
    entityId: string,
    changes: AuditChanges,
    ip: string,
    subjectPk: number | null = null,
    detail?: Record<string, unknown>,
  ) {
    return auditAdmin(db, event, {
      actor: caller,
      entity,
      entityId,
      subjectPk,
      changes,
      ip,
      ...(detail ? { detail } : {}),
    });
  }

  /** Criteria (optional: no criteria lists all) and the page, by the people-search rules. */
  private paging(query: SearchQuery) {
    const q = query.q?.trim() ?? '';
    const lastFour = q !== '' && isLastFourSearch(q);
    if (q !== '' && !lastFour) {
      const problem = checkSearchCriteria(q);
      if (problem)
        throw new AppError('invalid', problem, {
          message: 'Search criteria must be 2 to 100 characters',
          fieldErrors: {
            q: problem,
          },
        });
    }
    return { q: q || undefined, lastFour };
  }

  /** A page by key, after the "Result set is too large" check on the bounded count. */
  /**
   * One page of a capped search, or with `all` every match in one read (a list's CSV export: what the
   * list shows, all its pages — at most LIMITS.searchMaxResults, past which the search is refused).
   */
  private async page<T>(
    query: SearchQuery,
    count: (cap: number) => Promise<number>,
    rows: (page: PageRequest) => Promise<KeysetPage<T>>,
    all = false,
  ) {
    const pageSize = LIMITS.searchPageSize;
    const total = await count(LIMITS.searchMaxResults);
    if (isResultTooLarge(total))
      throw new AppError('invalid', 'search.tooLarge', {
        message: 'Result set is too large; please refine your search criteria.',
      });
    const page = await rows(
      all ? { limit: Math.max(total, 1) } : { after: query.after, before: query.before, limit: pageSize },
    );
    return { ...page, total, pageCount: pageCount(total, pageSize), pageSize };
  }

  // ---- Cardholders ----

  async listCardholders(
    caller: Caller,
    number: string,
    query: SearchQuery & { status?: string | undefined; sort?: CardholderSort | undefined },
    all = false,
  ): Promise<CardholderList> {
    const company = await this.company(this.db, caller, number);
    const filter = {
      ...this.paging(query),
      active: query.status === 'active' ? true : query.status === 'inactive' ? false : undefined,
    };
    if (query.status && filter.active === undefined)
      throw new AppError('invalid', 'form.invalid', {
        message: 'Status must be active or inactive',
        fieldErrors: {
          status: 'form.invalid',
        },
      });
    const result = await this.page(
      query,
      (cap) => countCardholders(this.db, caller, company.id, filter, cap),
      (page) =>
        pageOfCardholders(
          this.db,
          caller,
          company.id,
          filter,
          page,
          chosenOrder(CARDHOLDER_LIST_ORDER, query),
        ),
      all,
    );
    return { ...result, rows: result.rows.map(toCardholder), ...this.flags(caller, 'maintainAccounts') };
  }

  /** Every match of the cardholder search as CSV, in the order chosen (issue 20 item 3). */
  async exportCardholders(
    caller: Caller,
    number: string,
    query: Parameters<AccountService['listCardholders']>[2],
  ) {
    const list = await this.listCardholders(caller, number, query, true);
    const csv = csvDocument(
      CARDHOLDER_CSV_COLUMNS,
      list.rows.map((c) => [
        c.name1,
        c.name2,
        c.orgPoint ? `${c.orgPoint.number} ${c.orgPoint.name1}` : '',
        c.accountCount,
        c.active ? 'active' : 'inactive',
      ]),
    );
    return { csv, filename: csvFilename(`cardholders-${number}`) };
  }

  async getCardholder(caller: Caller, number: string, idText: string): Promise<CardholderDetail> {
    const company = await this.company(this.db, caller, number);
    const id = idOf(idText);
    const row = id === undefined ? undefined : await findCardholder(this.db, caller, company.id, id);
    if (!row) throw notFound('cardholder');
    const accountRows = await visibleAccountsOfCardholder(this.db, caller, company.id, row.id, 1000);
    const flags = this.flags(caller, 'maintainAccounts');
    return {
      ...toCardholder(row),
      companyNumber: company.number,
      accounts: accountRows.map(toAccount),
      ...flags,
      reasons: await reasonsOfCardholder(this.db, row.id, company.issuerId),
      reasonChoices: flags.canModify
        ? (await issuerCodesOf(this.db, company.issuerId, 'maintenance')).map((c) => ({
            code: c.code,
            description: c.description,
          }))
        : [],
    };
  }

  async updateCardholder(
    caller: Caller,
    number: string,
    idText: string,
    patch: CardholderPatch,
    ip: string,
  ): Promise<CardholderDetail> {
    await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const current = id === undefined ? undefined : await findCardholder(tx, caller, company.id, id, true);
      if (!current) throw notFound('cardholder');
      const parsed = cardholderSchema.safeParse({
        name1: patch.name1 ?? current.name1,
        name2: patch.name2 ?? current.name2,
      });
      const fieldErrors = parsed.success ? {} : toFieldErrors(parsed.error);
      let orgPoint: { id: number; number: string } | undefined;
      if (patch.orgPoint !== undefined && patch.orgPoint.trim() !== '') {
        orgPoint = await findOrgPoint(tx, company.id, patch.orgPoint.trim().slice(0, 40));
        if (!orgPoint) fieldErrors.orgPoint = 'cardholder.orgPoint.unknown';
      }
      if (!parsed.success || Object.keys(fieldErrors).length > 0)
        throw new AppError('invalid', 'form.invalid', {
          message: 'The cardholder has invalid fields',
          fieldErrors,
        });
      const next = {
        name1: parsed.data.name1,
        name2: parsed.data.name2,
        orgPoint: orgPoint ? orgPoint.number : current.orgPointNumber,
      };
      const changes = diffChanges({ ...current, orgPoint: current.orgPointNumber }, next, [
        'name1',
        'name2',
        'orgPoint',
      ]);
      if (Object.keys(changes).length === 0) return;
      await updateCardholder(tx, current.id, {
        name1: next.name1,
        name2: next.name2,
        ...(orgPoint ? { orgPointId: orgPoint.id } : {}),
      });
      await this.audit(
        tx,
        caller,
        'cardholder.updated',
        'cardholder',
        String(current.id),
        changes,
        ip,
        await userOfCardholder(tx, current.id),
        { company: company.number },
      );
    });
    return this.getCardholder(caller, number, idText);
  }

  async setCardholderActive(
    caller: Caller,
    number: string,
    idText: string,
    active: boolean,
    ip: string,
  ): Promise<CardholderDetail> {
    await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const current = id === undefined ? undefined : await findCardholder(tx, caller, company.id, id, true);
      if (!current) throw notFound('cardholder');
      if (current.active === active) return;
      if (!active && (await openExpenseReportsOf(tx, current.id)) > 0)
        throw new AppError('conflict', 'cardholder.openExpenseReports', {
          message: 'A cardholder with open expense reports cannot be deleted.',
        });
      if (!active && (await openAccountsOf(tx, current.id)) > 0)
        throw new AppError('conflict', 'cardholder.hasActiveAccounts', {
          message:
            'A cardholder with active or suspended accounts cannot be deactivated; close the accounts first.',
        });
      await updateCardholder(tx, current.id, { active });
      await this.audit(
        tx,
        caller,
        active ? 'cardholder.reactivated' : 'cardholder.deactivated',
        'cardholder',
        String(current.id),
        { active: { before: current.active, after: active } },
        ip,
        await userOfCardholder(tx, current.id),
        { company: company.number },
      );
    });
    return this.getCardholder(caller, number, idText);
  }

  // ---- Accounts ----

  async listAccounts(
    caller: Caller,
    number: string,
    query: SearchQuery & {
      group?: string | undefined;
      status?: string | undefined;
      sort?: AccountSort | undefined;
    },
    all = false,
  ): Promise<AccountList> {
    const company = await this.company(this.db, caller, number);
    const fieldErrors: Record<string, string> = {};
    const groupId = query.group ? idOf(query.group) : undefined;
    if (query.group && groupId === undefined) fieldErrors.group = 'form.invalid';
    if (query.status && !['Active', 'Suspended', 'Closed'].includes(query.status))
      fieldErrors.status = 'account.status.invalid';
    if (Object.keys(fieldErrors).length > 0)
      throw new AppError('invalid', 'form.invalid', { message: 'The filters are not valid', fieldErrors });
    const filter = { ...this.paging(query), groupId, status: query.status || undefined };
    const result = await this.page(
      query,
      (cap) => countAccounts(this.db, caller, company.id, filter, cap),
      (page) =>
        pageOfAccounts(this.db, caller, company.id, filter, page, chosenOrder(ACCOUNT_LIST_ORDER, query)),
      all,
    );
    return { ...result, rows: result.rows.map(toAccount), ...this.flags(caller, 'maintainAccounts') };
  }

  /**
   * Every match of the account search as CSV, in the order chosen (issue 20 item 3). Card numbers
   * leave masked, as the list shows them (DESIGN §7: a full card number never leaves the server).
   */
  async exportAccounts(caller: Caller, number: string, query: Parameters<AccountService['listAccounts']>[2]) {
    const list = await this.listAccounts(caller, number, query, true);
    const csv = csvDocument(
      ACCOUNT_CSV_COLUMNS,
      list.rows.map((a) => [
        a.maskedNumber,
        a.cardholder ? `${a.cardholder.name1} ${a.cardholder.name2}`.trim() : '',
        a.alias ?? '',
        a.group?.name ?? '',
        a.status,
      ]),
    );
    return { csv, filename: csvFilename(`accounts-${number}`) };
  }

  async getAccount(caller: Caller, number: string, idText: string): Promise<AccountDetail> {
    const company = await this.company(this.db, caller, number);
    const id = idOf(idText);
    const row = id === undefined ? undefined : await findAccount(this.db, caller, company.id, id);
    if (!row) throw notFound('account');
    const flags = this.flags(caller, 'maintainAccounts');
    const card = await cardFacts(this.db, row.id);
    return {
      ...toAccount(row),
      expiry: card?.expiry ?? null,
      registrationLocked: card?.lockedAt != null,
      companyNumber: company.number,
      ...flags,
      statusCodes: flags.canModify
        ? (await issuerCodesOf(this.db, company.issuerId, 'accountStatus')).flatMap((c) =>
            c.systemStatus
              ? [{ code: c.code, description: c.description, status: SYSTEM_STATUSES[c.systemStatus] }]
              : [],
          )
        : [],
    };
  }

  /**
   * Issues a card account to a cardholder of the company (issue 15 item 1): the cardholder and the
   * group in the caller's scope and active, the number by the one rule (issue.ts: Luhn, the issuer's
   * card BINs, not issued before), sealed at rest; an audit row with the masked number only.
   */
  async issueAccount(
    caller: Caller,
    number: string,
    body: NewAccountBody,
    vault: CardVault,
    ip: string,
  ): Promise<AccountDetail> {
    const id = await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const holder = await findCardholder(tx, caller, company.id, body.cardholderId, true);
      if (!holder)
        throw new AppError('invalid', 'account.cardholder.unknown', {
          message: 'No such cardholder in this company',
          fieldErrors: { cardholderId: 'account.cardholder.unknown' },
        });
      if (!holder.active)
        throw new AppError('conflict', 'account.cardholderInactive', {
          message: 'The cardholder is inactive: reactivate the cardholder first',
          fieldErrors: { cardholderId: 'account.cardholderInactive' },
        });
      let groupId: number | null = null;
      if (body.groupId) {
        const group = await findGroup(tx, caller, company.id, body.groupId);
        if (!group || !group.active)
          throw new AppError('invalid', group ? 'account.group.inactive' : 'account.group.unknown', {
            fieldErrors: { groupId: group ? 'account.group.inactive' : 'account.group.unknown' },
          });
        groupId = group.id;
      }
      const issued = await issueAccount(tx, vault, {
        companyId: company.id,
        cardholderId: holder.id,
        groupId,
        number: body.number,
        expiry: body.expiry ?? null,
      });
      if (issued.problem !== undefined)
        throw new AppError(
          issued.problem === 'account.number.duplicate' ? 'conflict' : 'invalid',
          issued.problem,
          {
            fieldErrors: { [issued.field ?? 'number']: issued.problem },
          },
        );
      await this.audit(
        tx,
        caller,
        'account.issued',
        'account',
        issued.masked,
        { status: { before: null, after: 'Active' } },
        ip,
        await userOfCardholder(tx, holder.id),
        { company: company.number, accountId: issued.accountId, cardholderId: holder.id },
      );
      return issued.accountId;
    });
    return this.getAccount(caller, number, String(id));
  }

  /**
   * Changes an account's status (Active ⇄ Suspended, either → Closed; Closed is final), given directly or
   * by one of the issuer's account status codes (issue 15 item 1), which sets the system status it maps to
   * and is kept on the account; both given, they must agree.
   */
  async setAccountStatus(
    caller: Caller,
    number: string,
    idText: string,
    body: AccountStatusBody,
    ip: string,
  ): Promise<AccountDetail> {
    await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const current = id === undefined ? undefined : await findAccount(tx, caller, company.id, id, true);
      if (!current) throw notFound('account');
      let status = body.status;
      let statusCode: string | null = null;
      if (body.statusCode) {
        const code = await findIssuerCode(tx, company.issuerId, 'accountStatus', body.statusCode);
        if (!code?.systemStatus)
          throw new AppError('invalid', 'account.statusCode.unknown', {
            fieldErrors: { statusCode: 'account.statusCode.unknown' },
          });
        const mapped = SYSTEM_STATUSES[code.systemStatus];
        if (status !== undefined && status !== mapped)
          throw new AppError('invalid', 'account.statusCode.mismatch', {
            fieldErrors: { statusCode: 'account.statusCode.mismatch' },
          });
        status = mapped;
        statusCode = code.code;
      }
      if (status === undefined)
        throw new AppError('invalid', 'account.status.invalid', {
          fieldErrors: { status: 'account.status.invalid' },
        });
      if (current.status === status && current.statusCode === statusCode) return;
      const problem = checkAccountStatusChange(current.status as AccountStatus, status);
      if (problem)
        throw new AppError('conflict', problem, {
          message: 'A closed account stays closed',
          fieldErrors: { status: problem },
        });
      if (status === 'Active' && current.cardholderActive === false)
        throw new AppError('conflict', 'account.cardholderInactive', {
          message: 'The cardholder is inactive: reactivate the cardholder first',
          fieldErrors: { status: 'account.cardholderInactive' },
        });
      await updateAccount(tx, current.id, { status, statusCode });
      await this.audit(
        tx,
        caller,
        status === 'Closed' && current.status !== 'Closed' ? 'account.closed' : 'account.statusChanged',
        'account',
        maskedNumberOf(current),
        {
          status: { before: current.status, after: status },
          ...(current.statusCode !== statusCode
            ? { issuerStatus: { before: current.statusCode, after: statusCode } }
            : {}),
        },
        ip,
        await userOfCardholder(tx, current.cardholderId),
        { company: company.number, accountId: current.id },
      );
    });
    return this.getAccount(caller, number, idText);
  }

  /**
   * Replaces a cardholder's maintenance reason codes (issue 15 item 1): at most 10, none twice, each one
   * of the issuer's maintenance reason codes; audited with the codes before and after.
   */
  async setCardholderReasons(
    caller: Caller,
    number: string,
    idText: string,
    codes: readonly string[],
    ip: string,
  ): Promise<CardholderDetail> {
    const problem = checkCardholderReasons(codes);
    if (problem) throw new AppError('invalid', problem, { fieldErrors: { codes: problem } });
    const wanted = [...new Set(codes.map(normaliseIssuerCode))].sort();
    await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const holder = id === undefined ? undefined : await findCardholder(tx, caller, company.id, id, true);
      if (!holder) throw notFound('cardholder');
      const known = await existingIssuerCodes(tx, company.issuerId, 'maintenance', wanted);
      if (known.length !== wanted.length)
        throw new AppError('invalid', 'cardholder.reasons.unknown', {
          fieldErrors: { codes: 'cardholder.reasons.unknown' },
        });
      const before = (await reasonsOfCardholder(tx, holder.id, company.issuerId)).map((r) => r.code);
      if (before.join(',') === wanted.join(',')) return;
      await replaceCardholderReasons(tx, holder.id, wanted);
      await this.audit(
        tx,
        caller,
        'cardholder.reasonsChanged',
        'cardholder',
        String(holder.id),
        { reasons: { before: before.join(','), after: wanted.join(',') } },
        ip,
        await userOfCardholder(tx, holder.id),
        { company: company.number },
      );
    });
    return this.getCardholder(caller, number, idText);
  }

  /**
   * Several accounts into one group (issue 20 item 3, "move to a group"): the group is checked once
   * (a 400 on `groupId`, nothing moved); each account is then moved exactly as alone — its own
   * transaction, scope, checks and audit row — and the answer says done, unchanged (already there) or
   * refused with the reason (e.g. a closed account).
   */
  async bulkMove(
    caller: Caller,
    number: string,
    body: AccountBulkMove,
    ip: string,
  ): Promise<AccountBulkResult> {
    const company = await this.company(this.db, caller, number);
    const group = body.groupId > 0 ? await findGroup(this.db, caller, company.id, body.groupId) : undefined;
    if (!group)
      throw new AppError('invalid', 'form.invalid', {
        message: 'No such account group in this company',
        fieldErrors: { groupId: 'account.group.unknown' },
      });
    if (!group.active)
      throw new AppError('invalid', 'form.invalid', {
        message: 'The account group is inactive',
        fieldErrors: { groupId: 'account.group.inactive' },
      });
    const results: AccountBulkResult['results'] = [];
    for (const id of [...new Set(body.accountIds)]) {
      try {
        const moved = await this.applyMove(caller, number, String(id), group.id, ip);
        results.push({ id, outcome: moved ? 'done' : 'unchanged', code: null });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ id, outcome: 'refused', code: error.code });
      }
    }
    return { results };
  }

  async moveAccount(
    caller: Caller,
    number: string,
    idText: string,
    groupId: number,
    ip: string,
  ): Promise<AccountDetail> {
    await this.applyMove(caller, number, idText, groupId, ip);
    return this.getAccount(caller, number, idText);
  }

  /**
   * Moves one account into a group of its company, in its own transaction (scope, the closed-is-final
   * rule, the group's checks, an audit row): true when moved, false when it was there already.
   */
  private applyMove(
    caller: Caller,
    number: string,
    idText: string,
    groupId: number,
    ip: string,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const current = id === undefined ? undefined : await findAccount(tx, caller, company.id, id, true);
      if (!current) throw notFound('account');
      if (current.status === 'Closed')
        throw new AppError('conflict', 'account.status.closedIsFinal', {
          message: 'A closed account stays closed',
        });
      const group = groupId > 0 ? await findGroup(tx, caller, company.id, groupId) : undefined;
      if (!group)
        throw new AppError('invalid', 'form.invalid', {
          message: 'No such account group in this company',
          fieldErrors: {
            groupId: 'account.group.unknown',
          },
        });
      if (!group.active)
        throw new AppError('invalid', 'form.invalid', {
          message: 'The account group is inactive',
          fieldErrors: {
            groupId: 'account.group.inactive',
          },
        });
      if (current.groupId === group.id) return false;
      await updateAccount(tx, current.id, { accountGroupId: group.id });
      await this.audit(
        tx,
        caller,
        'account.moved',
        'account',
        maskedNumberOf(current),
        { group: { before: current.groupName, after: group.name } },
        ip,
        await userOfCardholder(tx, current.cardholderId),
        { company: company.number, accountId: current.id },
      );
      return true;
    });
  }

  // ---- Account groups ----

  async listGroups(caller: Caller, number: string): Promise<AccountGroupList> {
    const company = await this.company(this.db, caller, number);
    const rows = await listGroups(this.db, caller, company.id);
    return { rows: rows.map(toGroup), ...this.flags(caller, 'maintainAccountGroups') };
  }

  private groupName(name: string): string {
    const parsed = accountGroupSchema.safeParse({ name });
    if (!parsed.success)
      throw new AppError('invalid', 'form.invalid', {
        message: 'The account group has invalid fields',
        fieldErrors: toFieldErrors(parsed.error),
      });
    return parsed.data.name;
  }

  private duplicate(): AppError {
    return new AppError('conflict', 'accountGroup.name.duplicate', {
      message: 'An account group of this name exists',
      fieldErrors: {
        name: 'accountGroup.name.duplicate',
      },
    });
  }

  async createGroup(caller: Caller, number: string, name: string, ip: string): Promise<AccountGroupSummary> {
    return this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const clean = this.groupName(name);
      await lockCompany(tx, company.id);
      if (await groupNameTaken(tx, company.id, clean)) throw this.duplicate();
      const row = await insertAccountGroup(tx, { companyId: company.id, name: clean });
      await this.audit(
        tx,
        caller,
        'accountGroup.created',
        'accountGroup',
        String(row.id),
        diffChanges(undefined, row, ['name']),
        ip,
        null,
        { company: company.number },
      );
      return { id: row.id, name: row.name, active: row.active, activeAccounts: 0 };
    });
  }

  async renameGroup(
    caller: Caller,
    number: string,
    idText: string,
    name: string,
    ip: string,
  ): Promise<AccountGroupSummary> {
    return this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const current = id === undefined ? undefined : await findGroup(tx, caller, company.id, id);
      if (!current) throw notFound('accountGroup');
      const clean = this.groupName(name);
      if (current.name === clean) return toGroup(current);
      await lockCompany(tx, company.id);
      if (await groupNameTaken(tx, company.id, clean, current.id)) throw this.duplicate();
      await updateAccountGroup(tx, current.id, { name: clean });
      await this.audit(
        tx,
        caller,
        'accountGroup.updated',
        'accountGroup',
        String(current.id),
        { name: { before: current.name, after: clean } },
        ip,
        null,
        { company: company.number },
      );
      return toGroup({ ...current, name: clean });
    });
  }

  async setGroupActive(
    caller: Caller,
    number: string,
    idText: string,
    active: boolean,
    ip: string,
  ): Promise<AccountGroupSummary> {
    return this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const current = id === undefined ? undefined : await findGroup(tx, caller, company.id, id);
      if (!current) throw notFound('accountGroup');
      if (current.active === active) return toGroup(current);
      await lockCompany(tx, company.id);
      const fresh = (await findGroup(tx, caller, company.id, current.id)) ?? current;
      if (!active && Number(fresh.activeAccounts) > 0)
        throw new AppError('conflict', 'accountGroup.hasActiveAccounts', {
          message:
            'An account group with active or suspended accounts cannot be deactivated; move or close them first.',
        });
      await updateAccountGroup(tx, current.id, { active });
      await this.audit(
        tx,
        caller,
        active ? 'accountGroup.reactivated' : 'accountGroup.deactivated',
        'accountGroup',
        String(current.id),
        { active: { before: current.active, after: active } },
        ip,
        null,
        { company: company.number },
      );
      return toGroup({ ...fresh, active });
    });
  }

  // ---- My cards ----

  /** A cardholder's own accounts; other types have no cards of their own (an empty answer). */
  async myCards(caller: Caller): Promise<MyCards> {
    if (caller.type !== 'A' || !caller.cardholderId)
      return { cardholder: null, companyNumber: null, accounts: [] };
    const holder = await cardholderWithCompany(this.db, caller.cardholderId);
    if (!holder) return { cardholder: null, companyNumber: null, accounts: [] };
    const rows = await accountsOfCardholder(this.db, holder.id);
    return {
      cardholder: { id: holder.id, name1: holder.name1, name2: holder.name2 },
      companyNumber: holder.companyNumber,
      accounts: rows.map(toAccount),
    };
  }
}
