import {
  type AccountStatus,
  type CallerScope,
  checkCardAlias,
  checkSearchCriteria,
  chosenOrder,
  isAccountDataReadOnly,
  isLastFourSearch,
  isResultTooLarge,
  LIMITS,
  may,
  type NewRealCardBody,
  pageCount,
  REAL_CARD_CSV_COLUMNS,
  REAL_CARD_LIST_ORDER,
  type RealCardDeleteResult,
  type RealCardList,
  type RealCardSort,
  type RealCardSummary,
  type SortDirection,
} from '@cardportal/domain';
import { and, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { containsPattern } from '../../db/rows.ts';
import { accounts, realCards } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, type AuditChanges, auditAdmin } from '../../kernel/audit.ts';
import type { CardVault } from '../../kernel/card-vault.ts';
import { countUpTo, keysetPage, type PageRequest, type SortKey, sortedKeyset } from '../../kernel/paging.ts';
import { csvDocument, csvFilename } from '../../kernel/spreadsheet.ts';
import { issueAccount } from './issue.ts';
import { companyInScope, idOf } from './lookup.ts';
import { type CompanyRef, lockCompany } from './repository.ts';
import { maskedNumberOf } from './service.ts';

/**
 * Real cards (issue 15 item 1, seed 001 "Real card maintenance with alias", docs/card-data.md): a
 * company's card account without a cardholder — a purchasing or lodge card, the funding card behind
 * virtual card numbers — known in the application by an alias. Issued by the account rule (issue.ts:
 * Luhn, the issuer's BINs, not issued before, sealed); the alias by `checkCardAlias` (never the number,
 * never its positions 7–12, no other card number), unique in the company regardless of case. The
 * number is opened only to check a new alias against it and never leaves this file. Deleting a real card
 * its transactions refer to marks it inactive instead (seed 001 §4); one nothing refers to is deleted
 * with its account. The company's administrators (H, I, G, C; Z reads) maintain them.
 */

type RealCardRow = {
  id: number;
  alias: string;
  aliasKey: string;
  active: boolean;
  accountId: number;
  accountStatus: string;
  bin: string | null;
  numberLength: number | null;
  last4: string;
  accountDigits: number;
  inUse: boolean;
};

const columns = {
  id: realCards.id,
  alias: realCards.alias,
  aliasKey: realCards.aliasKey,
  active: realCards.active,
  accountId: realCards.accountId,
  accountStatus: accounts.status,
  bin: accounts.bin,
  numberLength: accounts.numberLength,
  last4: accounts.last4,
  accountDigits: sql<number>`(select i.account_digits from issuers i
    where i.id = (select c.issuer_id from companies c where c.id = "real_cards"."company_id"))`.mapWith(
    Number,
  ),
  /** Transactions refer to its account (transactions_account_date_idx answers it at once). */
  inUse: sql<boolean>`exists (select 1 from transactions t where t.account_id = "real_cards"."account_id")`,
};

const selectRealCards = (db: Executor) =>
  db.select(columns).from(realCards).innerJoin(accounts, eq(accounts.id, realCards.accountId)).$dynamic();

const byAlias = [
  { expr: realCards.aliasKey, type: 'text' },
  { expr: realCards.id, type: 'int' },
] as const;

/**
 * The real cards' orders (docs/paging.md "Sorting"): by alias (case-insensitively) then id —
 * `real_cards_company_alias_key` orders it — or by status (active first) then alias (a search is
 * refused past LIMITS.searchMaxResults matches: at most that many sorted).
 */
const sorts: Record<RealCardSort, SortKey<RealCardRow>> = {
  alias: { keys: [...byAlias], keyOf: (row) => [row.aliasKey, row.id] },
  status: {
    keys: [{ expr: sql`(not ${realCards.active})::int`, type: 'int' }, ...byAlias],
    keyOf: (row) => [row.active ? 0 : 1, row.aliasKey, row.id],
  },
};

interface RealCardFilter {
  q?: string | undefined;
  lastFour?: boolean;
  active?: boolean | undefined;
}

const whereOf = (companyId: number, filter: RealCardFilter): SQL =>
  and(
    eq(realCards.companyId, companyId),
    filter.q
      ? filter.lastFour
        ? eq(accounts.last4, filter.q)
        : ilike(realCards.alias, containsPattern(filter.q))
      : undefined,
    filter.active !== undefined ? eq(realCards.active, filter.active) : undefined,
  ) as SQL;

const toSummary = (row: RealCardRow): RealCardSummary => ({
  id: row.id,
  alias: row.alias,
  maskedNumber: maskedNumberOf(row),
  last4: row.last4,
  active: row.active,
  accountStatus: row.accountStatus as AccountStatus,
  accountId: row.accountId,
  inUse: row.inUse,
});

const aliasKeyOf = (alias: string) => alias.toLowerCase();

const notFound = () => new AppError('notFound', 'realCard.notFound', { message: 'No such real card' });

const aliasProblem = (problem: string) =>
  new AppError(problem === 'card.alias.duplicate' ? 'conflict' : 'invalid', problem, {
    fieldErrors: { alias: problem },
  });

export class RealCardService {
  constructor(
    private readonly db: Db,
    private readonly vault: () => CardVault,
  ) {}

  private company(db: Executor, caller: CallerScope, number: string): Promise<CompanyRef> {
    return companyInScope(db, caller, number);
  }

  private async find(db: Executor, companyId: number, id: number, lock = false) {
    const query = selectRealCards(db)
      .where(and(eq(realCards.id, id), eq(realCards.companyId, companyId)))
      .limit(1);
    const [row] = lock ? await query.for('update', { of: [realCards, accounts] }) : await query;
    return row as RealCardRow | undefined;
  }

  private async aliasTaken(db: Executor, companyId: number, alias: string, except?: number) {
    const [row] = await db
      .select({ id: realCards.id })
      .from(realCards)
      .where(and(eq(realCards.companyId, companyId), eq(realCards.aliasKey, aliasKeyOf(alias))))
      .limit(1);
    return row !== undefined && row.id !== except;
  }

  private audit(
    db: Executor,
    caller: Caller,
    event: AdminAuditEvent,
    card: { id: number; masked: string },
    changes: AuditChanges,
    ip: string,
    company: string,
  ) {
    return auditAdmin(db, event, {
      actor: caller,
      entity: 'realCard',
      entityId: card.masked,
      subjectPk: null,
      changes,
      ip,
      detail: { company, realCardId: card.id },
    });
  }

  async list(
    caller: Caller,
    number: string,
    query: {
      q?: string | undefined;
      status?: string | undefined;
      sort?: RealCardSort | undefined;
      dir?: SortDirection | undefined;
    } & Omit<PageRequest, 'limit'>,
    /** Every match in one read (the CSV export), not one page. */
    all = false,
  ): Promise<RealCardList> {
    const company = await this.company(this.db, caller, number);
    const q = query.q?.trim() ?? '';
    const lastFour = q !== '' && isLastFourSearch(q);
    const fieldErrors: Record<string, string> = {};
    if (q !== '' && !lastFour) {
      const problem = checkSearchCriteria(q);
      if (problem) fieldErrors.q = problem;
    }
    if (query.status && query.status !== 'active' && query.status !== 'inactive')
      fieldErrors.status = 'form.invalid';
    if (Object.keys(fieldErrors).length > 0)
      throw new AppError('invalid', fieldErrors.q ?? 'form.invalid', {
        message: 'The search is not valid',
        fieldErrors,
      });
    const filter: RealCardFilter = {
      q: q || undefined,
      lastFour,
      active: query.status ? query.status === 'active' : undefined,
    };
    const where = whereOf(company.id, filter);
    const total = await countUpTo(this.db, LIMITS.searchMaxResults, (limit) =>
      this.db
        .select({ one: sql`1` })
        .from(realCards)
        .innerJoin(accounts, eq(accounts.id, realCards.accountId))
        .where(where)
        .limit(limit)
        .as('counted'),
    );
    if (isResultTooLarge(total))
      throw new AppError('invalid', 'search.tooLarge', {
        message: 'Result set is too large; please refine your search criteria.',
      });
    const pageSize = LIMITS.searchPageSize;
    const keyset = sortedKeyset(
      'real-cards',
      sorts,
      chosenOrder(REAL_CARD_LIST_ORDER, query),
      REAL_CARD_LIST_ORDER.default,
    );
    const page = await keysetPage(
      keyset,
      all ? { limit: Math.max(total, 1) } : { after: query.after, before: query.before, limit: pageSize },
      (beyond) => selectRealCards(this.db).where(and(where, beyond)),
    );
    return {
      ...page,
      rows: (page.rows as RealCardRow[]).map(toSummary),
      total,
      pageCount: pageCount(total, pageSize),
      pageSize,
      canModify: may(caller, 'maintainRealCards'),
      readOnly: isAccountDataReadOnly(caller.type),
    };
  }

  /** Every match of the search as CSV, in the order chosen (issue 20 item 3); numbers masked. */
  async exportCsv(caller: Caller, number: string, query: Parameters<RealCardService['list']>[2]) {
    const list = await this.list(caller, number, query, true);
    const csv = csvDocument(
      REAL_CARD_CSV_COLUMNS,
      list.rows.map((card) => [
        card.alias,
        card.maskedNumber,
        card.accountStatus,
        card.inUse ? 'yes' : 'no',
        card.active ? 'active' : 'inactive',
      ]),
    );
    return { csv, filename: csvFilename(`real-cards-${number}`) };
  }

  async get(caller: Caller, number: string, idText: string): Promise<RealCardSummary> {
    const company = await this.company(this.db, caller, number);
    const id = idOf(idText);
    const row = id === undefined ? undefined : await this.find(this.db, company.id, id);
    if (!row) throw notFound();
    return toSummary(row);
  }

  /** Issues the card account (no cardholder) and names it, in one transaction: both or neither. */
  async create(caller: Caller, number: string, body: NewRealCardBody, ip: string): Promise<RealCardSummary> {
    const alias = body.alias.trim();
    const id = await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const problem = checkCardAlias(alias, body.number);
      if (problem) throw aliasProblem(problem);
      // The company's row lock serialises alias checks (the unique index backs it up).
      await lockCompany(tx, company.id);
      if (await this.aliasTaken(tx, company.id, alias)) throw aliasProblem('card.alias.duplicate');
      const issued = await issueAccount(tx, this.vault(), {
        companyId: company.id,
        cardholderId: null,
        groupId: null,
        number: body.number,
      });
      if (issued.problem !== undefined)
        throw new AppError(
          issued.problem === 'account.number.duplicate' ? 'conflict' : 'invalid',
          issued.problem,
          { fieldErrors: { number: issued.problem } },
        );
      const [row] = await tx
        .insert(realCards)
        .values({ companyId: company.id, accountId: issued.accountId, alias, aliasKey: aliasKeyOf(alias) })
        .returning({ id: realCards.id });
      if (!row) throw new Error('real card not inserted');
      await this.audit(
        tx,
        caller,
        'realCard.created',
        { id: row.id, masked: issued.masked },
        { alias: { before: null, after: alias } },
        ip,
        company.number,
      );
      return row.id;
    });
    return this.get(caller, number, String(id));
  }

  /** A new alias, checked against the card's own number (opened here, never answered). */
  async rename(
    caller: Caller,
    number: string,
    idText: string,
    aliasText: string,
    ip: string,
  ): Promise<RealCardSummary> {
    const alias = aliasText.trim();
    await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const current = id === undefined ? undefined : await this.find(tx, company.id, id, true);
      if (!current) throw notFound();
      if (current.alias === alias) return;
      const [sealed] = await tx
        .select({ cipher: accounts.numberCipher, hash: accounts.numberHash })
        .from(accounts)
        .where(eq(accounts.id, current.accountId));
      if (!sealed?.cipher || !sealed.hash) throw new Error('real card account not sealed');
      const problem = checkCardAlias(alias, this.vault().open(sealed.cipher, sealed.hash));
      if (problem) throw aliasProblem(problem);
      await lockCompany(tx, company.id);
      if (await this.aliasTaken(tx, company.id, alias, current.id))
        throw aliasProblem('card.alias.duplicate');
      await tx
        .update(realCards)
        .set({ alias, aliasKey: aliasKeyOf(alias), updatedAt: sql`now()` })
        .where(eq(realCards.id, current.id));
      await this.audit(
        tx,
        caller,
        'realCard.updated',
        { id: current.id, masked: maskedNumberOf(current) },
        { alias: { before: current.alias, after: alias } },
        ip,
        company.number,
      );
    });
    return this.get(caller, number, idText);
  }

  async setActive(
    caller: Caller,
    number: string,
    idText: string,
    active: boolean,
    ip: string,
  ): Promise<RealCardSummary> {
    await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const current = id === undefined ? undefined : await this.find(tx, company.id, id, true);
      if (!current) throw notFound();
      if (current.active === active) return;
      await tx.update(realCards).set({ active, updatedAt: sql`now()` }).where(eq(realCards.id, current.id));
      await this.audit(
        tx,
        caller,
        active ? 'realCard.reactivated' : 'realCard.deactivated',
        { id: current.id, masked: maskedNumberOf(current) },
        { active: { before: current.active, after: active } },
        ip,
        company.number,
      );
    });
    return this.get(caller, number, idText);
  }

  /**
   * Deletes a real card nothing refers to, with its card account; one in use (transactions posted to
   * it) is marked inactive instead. The account's row lock comes first: an import adding a transaction
   * to it holds a key-share lock on it until it commits, so the check below sees that transaction.
   */
  async delete(caller: Caller, number: string, idText: string, ip: string): Promise<RealCardDeleteResult> {
    const outcome = await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      const id = idOf(idText);
      const locked = id === undefined ? undefined : await this.find(tx, company.id, id, true);
      if (!locked) throw notFound();
      const current = (await this.find(tx, company.id, locked.id)) ?? locked;
      const card = { id: current.id, masked: maskedNumberOf(current) };
      if (current.inUse) {
        if (current.active) {
          await tx
            .update(realCards)
            .set({ active: false, updatedAt: sql`now()` })
            .where(eq(realCards.id, current.id));
          await this.audit(
            tx,
            caller,
            'realCard.deactivated',
            card,
            { active: { before: true, after: false } },
            ip,
            company.number,
          );
        }
        return 'deactivated' as const;
      }
      await tx.delete(realCards).where(eq(realCards.id, current.id));
      await tx.delete(accounts).where(eq(accounts.id, current.accountId));
      await this.audit(
        tx,
        caller,
        'realCard.deleted',
        card,
        { alias: { before: current.alias, after: null } },
        ip,
        company.number,
      );
      return 'deleted' as const;
    });
    return {
      outcome,
      realCard: outcome === 'deleted' ? null : await this.get(caller, number, idText),
    };
  }
}
