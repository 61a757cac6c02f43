import {
  type CreateUserBody,
  canAdminister,
  checkEmail,
  checkEmailPair,
  checkNewUserId,
  checkPersonName,
  checkSearchCriteria,
  checkUserScope,
  chosenOrder,
  isInScope,
  isResultTooLarge,
  isSystemReadOnly,
  LIMITS,
  mayAdministerUser,
  type Placement,
  pageCount,
  type ScopeField,
  type UpdateUserBody,
  USER_CSV_COLUMNS,
  USER_LIST_ORDER,
  USER_TYPE_CODES,
  USER_TYPE_INFO,
  type UserBulkBody,
  type UserBulkResult,
  type UserDetail,
  type UserPlacementInput,
  type UserSearchQuery,
  type UserSearchResult,
  type UserStatus,
  type UserSummary,
  type UserType,
} from '@cardportal/domain';
import type { FastifyInstance } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, refuse } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, auditAdmin, diffChanges } from '../../kernel/audit.ts';
import { csvDocument, csvFilename } from '../../kernel/spreadsheet.ts';
import { generatedPassword } from '../../security/generated-password.ts';
import { hashSecret } from '../../security/hashing.ts';
import { orgPathOf, peerOf, placementOfVisible } from '../access/index.ts';
import { passwordPolicyOf } from '../issuers/index.ts';
import { composeMail, enqueueFirstPassword } from '../mail/index.ts';
import { findCompanyByNumber } from '../organisations/index.ts';
import * as repo from './repository.ts';
import { type UserRow, unlockUser } from './users.ts';

/** Fields of a user the audit trail records (never the password or its hash). */
const AUDITED_FIELDS = [
  'displayUserId',
  'email',
  'firstName',
  'lastName',
  'userType',
  'status',
  'locale',
  'issuerGroupId',
  'issuerId',
  'companyGroupId',
  'companyId',
  'orgPointId',
  'accountGroupId',
  'cardholderId',
] as const;

const SCOPE_FIELDS: readonly ScopeField[] = [
  'issuerGroupId',
  'issuerId',
  'companyGroupId',
  'companyId',
  'orgPointId',
  'accountGroupId',
  'cardholderId',
];

/** Names (packages/domain checkPersonName). */
const checkName = checkPersonName;

type Scoped = NonNullable<Awaited<ReturnType<typeof repo.findVisibleUser>>>;

interface ResolvedPlacement {
  columns: Record<ScopeField, number | null>;
  /** A cardholder to create for a type-A user (no existing one named). */
  newCardholder: boolean;
  placement: Placement;
  cobrand: string | null;
}

export class UserService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly db: Db,
  ) {}

  // ------------------------------------------------------------------------------------------------
  // Reading

  /** One page of the search, or with `all` every match in one read (the CSV export). */
  async search(caller: Caller, query: UserSearchQuery, all = false): Promise<UserSearchResult> {
    const q = query.q?.trim() ?? '';
    if (q.length > 0 || (!query.type && !query.status)) {
      const problem = checkSearchCriteria(q);
      if (problem) refuse('invalid', 'form.invalid', { q: problem });
    }
    const filter = { q: q || undefined, type: query.type, status: query.status };
    const total = await repo.countUsers(this.db, caller, filter, LIMITS.searchMaxResults);
    if (isResultTooLarge(total)) refuse('invalid', 'search.tooLarge', { q: 'search.tooLarge' });
    const pageSize = LIMITS.searchPageSize;
    const page = await repo.searchUsers(
      this.db,
      caller,
      filter,
      all ? { limit: Math.max(total, 1) } : { after: query.after, before: query.before, limit: pageSize },
      chosenOrder(USER_LIST_ORDER, query),
    );
    return {
      rows: page.rows.map((r) => summary(r)),
      nextCursor: page.nextCursor,
      prevCursor: page.prevCursor,
      total,
      pageCount: pageCount(total),
      pageSize,
      readOnly: caller.type === 'Z',
    };
  }

  /**
   * Every match of a search as CSV (issue 20 item 3: a list exports what it shows — all its pages, up
   * to the "Result set is too large" limit, which the search refuses past anyway). Cells that a
   * spreadsheet would run as a formula are neutralised.
   */
  async exportCsv(caller: Caller, query: Omit<UserSearchQuery, 'after' | 'before'>) {
    // The search's own checks and count ("too large" past the limit), and every match in one read.
    const { rows } = await this.search(caller, query, true);
    const csv = csvDocument(
      USER_CSV_COLUMNS,
      rows.map((r) => [
        r.userId,
        r.firstName,
        r.lastName,
        r.email,
        r.userType,
        r.status,
        r.company ? `${r.company.number} ${r.company.name}` : '',
      ]),
    );
    return { csv, filename: csvFilename('users') };
  }

  /**
   * One action on several users (issue 20 item 3): each user is changed exactly as the single action
   * changes it (its own transaction, scope and permission checks, audit row), and the answer says what
   * became of each — done, unchanged (already so), or refused with the reason.
   */
  async bulk(caller: Caller, body: UserBulkBody, ip: string): Promise<UserBulkResult> {
    const results: UserBulkResult['results'] = [];
    for (const userId of [...new Set(body.userIds)]) {
      try {
        const before = await this.view(caller, userId);
        const already =
          (body.action === 'unlock' && before.status !== 'Locked') ||
          (body.action === 'deactivate' && before.status === 'Inactive') ||
          (body.action === 'reactivate' && before.status === 'Active');
        if (already) {
          results.push({ userId: before.userId, outcome: 'unchanged', code: null });
          continue;
        }
        if (body.action === 'unlock') await this.unlock(caller, before.userId, ip);
        else
          await this.setStatus(
            caller,
            before.userId,
            body.action === 'deactivate' ? 'Inactive' : 'Active',
            ip,
          );
        results.push({ userId: before.userId, outcome: 'done', code: null });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ userId, outcome: 'refused', code: error.code });
      }
    }
    return { results };
  }

  /** The user as the caller may see it; 404 when absent or outside the scope (never says which). */
  async view(caller: Caller, userId: string): Promise<UserDetail> {
    const target = await this.visible(caller, userId);
    return this.detail(caller, target);
  }

  private async visible(caller: Caller, userId: string, db: Executor = this.db): Promise<Scoped> {
    const row = await repo.findVisibleUser(db, caller, userId);
    if (!row) return refuse('notFound', 'user.notFound');
    return row;
  }

  private placementOf(caller: Caller, row: Scoped, db: Executor = this.db) {
    return placementOfVisible(db, caller, row);
  }

  private async may(caller: Caller, row: Scoped, db: Executor = this.db) {
    const target = await this.placementOf(caller, row, db);
    const type = target.type;
    const modify =
      mayAdministerUser(caller, target, 'modify', peerOf(caller)) && !isSystemReadOnly(caller.type, type);
    const self = row.user.id === caller.userPk;
    const status = row.user.status as UserStatus;
    return {
      modify,
      deactivate: modify && !self && status !== 'Inactive',
      reactivate: modify && !self && status === 'Inactive',
      unlock: modify && status === 'Locked',
      self,
      target,
    };
  }

  private async detail(caller: Caller, row: Scoped, db: Executor = this.db): Promise<UserDetail> {
    const allowed = await this.may(caller, row, db);
    const u = row.user;
    return {
      ...summary(row),
      locale: u.locale,
      loginType: u.loginType,
      firstLogin: u.firstLogin,
      createdAt: u.createdAt.toISOString(),
      lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
      placement: {
        issuerGroupId: u.issuerGroupId,
        issuerId: u.issuerId,
        companyGroupId: u.companyGroupId,
        companyId: u.companyId,
        orgPointId: u.orgPointId,
        accountGroupId: u.accountGroupId,
        cardholderId: u.cardholderId,
      },
      allowed: {
        modify: allowed.modify,
        deactivate: allowed.deactivate,
        reactivate: allowed.reactivate,
        unlock: allowed.unlock,
      },
      assignableTypes: allowed.modify && !allowed.self ? this.assignable(caller) : [],
      readOnly: isSystemReadOnly(caller.type, u.userType as UserType),
      singleSignOn: u.sso
        ? {
            provider: u.federationProviderId ? await repo.providerName(db, u.federationProviderId) : null,
            subject: u.federationSubject,
          }
        : null,
    };
  }

  private assignable(caller: Caller): UserType[] {
    return USER_TYPE_CODES.filter(
      (t) => canAdminister(caller.type, t, 'create', peerOf(caller)) && !isSystemReadOnly(caller.type, t),
    );
  }

  // ------------------------------------------------------------------------------------------------
  // Writing

  async create(caller: Caller, body: CreateUserBody, ip: string): Promise<UserDetail> {
    const errors: Record<string, string> = {};
    const idProblem = checkNewUserId(body.userId)[0];
    if (idProblem) errors.userId = idProblem;
    const emails = checkEmailPair(body.email.trim(), body.emailConfirm.trim());
    if (emails.email) errors.email = emails.email;
    if (emails.emailConfirm) errors.emailConfirm = emails.emailConfirm;
    for (const field of ['firstName', 'lastName'] as const) {
      const problem = checkName(field, body[field]);
      if (problem) errors[field] = problem;
    }
    if (
      !canAdminister(caller.type, body.userType, 'create', peerOf(caller)) ||
      isSystemReadOnly(caller.type, body.userType)
    )
      errors.userType = 'userType.notAllowed';
    if (Object.keys(errors).length > 0) refuse('invalid', 'form.invalid', errors);

    const email = body.email.trim();
    const created = await this.db.transaction(async (tx) => {
      const resolved = await this.resolvePlacement(tx, caller, body.userType, body.placement, {});
      if (await repo.userIdTaken(tx, body.userId))
        refuse('conflict', 'userId.exists', { userId: 'userId.exists' });
      // The first password meets the new user's issuer's minimum length, and is never a common one.
      const policy = await passwordPolicyOf(tx, resolved.columns);
      const password = generatedPassword(body.userId, policy.passwordMinLength);
      const passwordHash = await hashSecret(password);
      const firstName = body.firstName.trim();
      const lastName = body.lastName.trim();
      if (resolved.newCardholder) {
        resolved.columns.cardholderId = await repo.insertCardholder(tx, {
          companyId: resolved.columns.companyId as number,
          orgPointId: resolved.columns.orgPointId,
          name1: firstName,
          name2: lastName,
        });
      }
      const row = await repo.insertUser(tx, {
        displayUserId: body.userId,
        email,
        firstName,
        lastName,
        userType: body.userType,
        cobrand: resolved.cobrand ?? caller.cobrand,
        locale: body.locale ?? caller.locale,
        passwordHash,
        ...resolved.columns,
      });
      await enqueueFirstPassword(this.app, this.app.config.publicUrl, row, password, tx);
      await this.record(tx, 'user.created', caller, row, undefined, ip);
      return row;
    });
    this.app.mailWorker.kick();
    const row = await this.visible(caller, created.userId);
    return this.detail(caller, row);
  }

  async update(caller: Caller, userId: string, body: UpdateUserBody, ip: string): Promise<UserDetail> {
    return this.db.transaction(async (tx) => {
      const row = await this.visible(caller, userId, tx);
      const allowed = await this.may(caller, row, tx);
      if (!allowed.modify) refuse('forbidden', 'user.forbidden');
      const before = row.user;
      const errors: Record<string, string> = {};
      const values: Partial<UserRow> = {};
      for (const field of ['firstName', 'lastName'] as const) {
        const value = body[field];
        if (value === undefined) continue;
        const problem = checkName(field, value);
        if (problem) errors[field] = problem;
        else values[field] = value.trim();
      }
      if (body.email !== undefined && body.email.trim().toLowerCase() !== before.email.toLowerCase()) {
        const pair = checkEmailPair(body.email.trim(), (body.emailConfirm ?? '').trim());
        if (pair.email) errors.email = pair.email;
        if (pair.emailConfirm) errors.emailConfirm = pair.emailConfirm;
        values.email = body.email.trim();
      } else if (body.email !== undefined) {
        const problem = checkEmail(body.email.trim());
        if (problem) errors.email = problem;
        else values.email = body.email.trim();
      }
      if (body.locale !== undefined) values.locale = body.locale;
      const type = body.userType ?? (before.userType as UserType);
      if (type !== before.userType) {
        if (allowed.self) errors.userType = 'user.self';
        else if (
          !canAdminister(caller.type, type, 'create', peerOf(caller)) ||
          isSystemReadOnly(caller.type, type)
        )
          errors.userType = 'userType.notAllowed';
        else values.userType = type;
      }
      if (Object.keys(errors).length > 0) refuse('invalid', 'form.invalid', errors);
      if (type !== before.userType || body.placement !== undefined) {
        const current = Object.fromEntries(SCOPE_FIELDS.map((f) => [f, before[f]])) as Record<
          ScopeField,
          number | null
        >;
        const resolved = await this.resolvePlacement(tx, caller, type, body.placement, current, before.id);
        if (resolved.newCardholder) {
          resolved.columns.cardholderId = await repo.insertCardholder(tx, {
            companyId: resolved.columns.companyId as number,
            orgPointId: resolved.columns.orgPointId,
            name1: values.firstName ?? before.firstName,
            name2: values.lastName ?? before.lastName,
          });
        }
        Object.assign(values, resolved.columns);
      }
      const after = await repo.updateUser(tx, before.id, values);
      await this.record(tx, 'user.updated', caller, after, before, ip);
      return this.detail(caller, await this.visible(caller, after.userId, tx), tx);
    });
  }

  async setStatus(
    caller: Caller,
    userId: string,
    status: 'Active' | 'Inactive',
    ip: string,
  ): Promise<UserDetail> {
    return this.db.transaction(async (tx) => {
      const row = await this.visible(caller, userId, tx);
      if (row.user.id === caller.userPk) refuse('invalid', 'user.self');
      const allowed = await this.may(caller, row, tx);
      if (!allowed.modify) refuse('forbidden', 'user.forbidden');
      const before = row.user;
      if (before.status === status) return this.detail(caller, row, tx);
      if (status === 'Active' && before.status === 'Locked') refuse('conflict', 'user.locked');
      const after = await repo.updateUser(tx, before.id, { status });
      if (status === 'Inactive') await repo.endSessions(tx, before.id);
      await this.record(
        tx,
        status === 'Inactive' ? 'user.deactivated' : 'user.reactivated',
        caller,
        after,
        before,
        ip,
      );
      return this.detail(caller, await this.visible(caller, after.userId, tx), tx);
    });
  }

  async unlock(caller: Caller, userId: string, ip: string): Promise<UserDetail> {
    return this.db
      .transaction(async (tx) => {
        const row = await this.visible(caller, userId, tx);
        const allowed = await this.may(caller, row, tx);
        if (!allowed.modify) refuse('forbidden', 'user.forbidden');
        const before = row.user;
        if (before.status !== 'Locked') refuse('conflict', 'user.notLocked');
        // Locked by an expired temporary password: the unlock mails a new one (shared/users.ts).
        const after = await unlockUser(tx, before, (user, password, db) =>
          composeMail(
            this.app,
            'temporary-password',
            user,
            { cobrand: user.cobrand, locale: user.locale },
            [password],
            db,
          ),
        );
        if (!after) return refuse('conflict', 'user.notLocked');
        await this.record(tx, 'user.unlocked', caller, after, before, ip);
        return this.detail(caller, await this.visible(caller, after.userId, tx), tx);
      })
      .finally(() => this.app.mailWorker.kick());
  }

  private async record(
    tx: Executor,
    event: AdminAuditEvent,
    caller: Caller,
    after: UserRow,
    before: UserRow | undefined,
    ip: string,
  ): Promise<void> {
    await auditAdmin(tx, event, {
      actor: caller,
      entity: 'user',
      entityId: after.displayUserId,
      subjectPk: after.id,
      changes: diffChanges(before, after, AUDITED_FIELDS),
      ip,
    });
  }

  /**
   * The placement of a new or edited user of `type`: the columns its type needs, each from the input,
   * else the current value, else the caller's own; the records must exist and fit together, and the
   * resolved placement must lie in the caller's scope. Anything wrong is `placement.invalid` on the
   * field (unknown and out-of-scope records answer alike).
   */
  private async resolvePlacement(
    tx: Executor,
    caller: Caller,
    type: UserType,
    input: UserPlacementInput | undefined,
    current: Partial<Record<ScopeField, number | null>>,
    exceptPk?: number,
  ): Promise<ResolvedPlacement> {
    if (input?.companyNumber) {
      // The company by its number: an unknown number answers like an out-of-scope company.
      const company = await findCompanyByNumber(tx, input.companyNumber);
      if (!company) refuse('invalid', 'form.invalid', { 'placement.companyId': 'placement.invalid' });
      input = { ...input, companyId: company?.id ?? null };
    }
    const needed = USER_TYPE_INFO[type].scopeFields;
    const columns = Object.fromEntries(SCOPE_FIELDS.map((f) => [f, null])) as Record<
      ScopeField,
      number | null
    >;
    const pick = (f: ScopeField): number | null => {
      if (input && input[f] !== undefined) return input[f] ?? null;
      if (current[f] !== undefined && current[f] !== null) return current[f] ?? null;
      return f === 'cardholderId' ? null : (caller[f] ?? null);
    };
    for (const f of needed) columns[f] = pick(f);
    // A cardholder may sit at an org point (for the cardholder record), whether or not A needs one.
    if (type === 'A') columns.orgPointId = input?.orgPointId ?? current.orgPointId ?? null;
    const newCardholder = type === 'A' && columns.cardholderId === null;
    const missing = checkUserScope(type, {
      ...columns,
      cardholderId: newCardholder ? -1 : columns.cardholderId,
    });
    if (missing.length > 0) {
      const errors: Record<string, string> = {};
      for (const key of missing)
        errors[`placement.${key.slice('userScope.'.length, -'Required'.length)}`] = key;
      refuse('invalid', 'form.invalid', errors);
    }
    const invalid = (f: ScopeField) =>
      refuse('invalid', 'form.invalid', { [`placement.${f}`]: 'placement.invalid' });
    const placement: Placement = { userPk: exceptPk };
    let cobrand: string | null = null;
    const issuerInto = async (issuerId: number) => {
      const issuer = await repo.findIssuer(tx, issuerId);
      if (!issuer) return false;
      placement.issuerId = issuer.id;
      placement.issuerGroupId = issuer.issuerGroupId;
      cobrand ??= issuer.cobrand;
      return true;
    };
    if (columns.issuerGroupId !== null) placement.issuerGroupId = columns.issuerGroupId;
    if (columns.issuerId !== null && !(await issuerInto(columns.issuerId))) invalid('issuerId');
    if (columns.companyGroupId !== null) {
      const group = await repo.findCompanyGroup(tx, columns.companyGroupId);
      if (!group) return invalid('companyGroupId');
      placement.companyGroupId = group.id;
      await issuerInto(group.issuerId);
    }
    if (columns.companyId !== null) {
      const company = await repo.findCompany(tx, columns.companyId);
      if (!company || !company.active) return invalid('companyId');
      placement.companyId = company.id;
      placement.companyGroupId = company.companyGroupId;
      await issuerInto(company.issuerId);
    }
    if (columns.orgPointId !== null) {
      const point = await repo.findOrgPoint(tx, columns.orgPointId);
      if (!point || !point.active || point.companyId !== columns.companyId) return invalid('orgPointId');
      placement.orgPath = await orgPathOf(tx, point.id);
    }
    if (columns.accountGroupId !== null) {
      const group = await repo.findAccountGroup(tx, columns.accountGroupId);
      if (!group || group.companyId !== columns.companyId) return invalid('accountGroupId');
      placement.accountGroupId = group.id;
    }
    if (columns.cardholderId !== null) {
      const holder = await repo.findCardholder(tx, columns.cardholderId);
      if (!holder || holder.companyId !== columns.companyId) return invalid('cardholderId');
      if (await repo.cardholderLinked(tx, holder.id, exceptPk)) return invalid('cardholderId');
      placement.cardholderId = holder.id;
      columns.orgPointId = type === 'A' ? holder.orgPointId : columns.orgPointId;
    }
    // In the caller's scope: judged as the caller would see the new user. A manager's or cardholder's
    // scope never admits a new user (they administer nobody), so the own-cardholder case cannot arise.
    const inScope =
      caller.type === 'O' || caller.type === 'S'
        ? isInScope(caller, placement)
        : isInScope(caller, { ...placement, orgPath: placement.orgPath ?? [] });
    if (!inScope) {
      const field = needed.find((f) => f !== 'cardholderId') ?? 'companyId';
      invalid(field);
    }
    return { columns, newCardholder, placement, cobrand };
  }
}

function summary(row: Scoped): UserSummary {
  const u = row.user;
  return {
    userId: u.displayUserId,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    userType: u.userType as UserType,
    status: u.status as UserStatus,
    company:
      u.companyId !== null && row.companyNumber !== null
        ? { id: u.companyId, number: row.companyNumber, name: row.companyName ?? '' }
        : null,
  };
}
