import {
  ACCOUNT_DIGITS_DEFAULT,
  type CompanyGroupList,
  type CompanyGroupSummary,
  type CompanyOptionsBody,
  checkAccountDigits,
  checkIssuerPasswordPolicy,
  checkPageJump,
  checkSearchCriteria,
  chosenOrder,
  companyGroupSchema,
  DEFAULT_PASSWORD_POLICY,
  type GroupNameBody,
  ISSUER_CSV_COLUMNS,
  ISSUER_LIST_ORDER,
  type IssuerDetail,
  type IssuerGroupList,
  type IssuerGroupSummary,
  type IssuerList,
  type IssuerOptionsBody,
  type IssuerPasswordPolicy,
  type IssuerPatch,
  type IssuerSort,
  type IssuerSummary,
  isFeatureEnabled,
  isProgramOptionKey,
  isResultTooLarge,
  issuerGroupSchema,
  issuerSchema,
  LIMITS,
  may,
  type NewIssuerBody,
  OFFERED_PROGRAM_OPTION_KEYS,
  type OptionSettings,
  type ProgramOptionConflict,
  type ProgramOptionKey,
  type ProgramOptionsView,
  pageCount,
  parseCardBins,
  type SortDirection,
  toFieldErrors,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, type AuditChanges, auditAdmin, diffChanges } from '../../kernel/audit.ts';
import { csvDocument, csvFilename } from '../../kernel/spreadsheet.ts';
import { endSessionsOfOrganisation } from '../access/index.ts';
import {
  companyOptionLevels,
  companySingleSignOnConflict,
  issuerSingleSignOnConflict,
} from './program-options.ts';
import {
  cobrandExists,
  companyGroupNameTaken,
  companyGroupsOf,
  countCompaniesOf,
  countIssuers,
  deleteIssuer,
  findCompanyGroup,
  findCompanyInScope,
  findIssuerGroupInScope,
  findIssuerInScope,
  type IssuerRecord,
  insertCompanyGroup,
  insertIssuer,
  insertIssuerGroup,
  issuerGroupNameTaken,
  issuerGroupsInScope,
  issuerInUse,
  issuerNumberTaken,
  issuerOptionRows,
  lockCompanyGroup,
  lockIssuer,
  lockIssuerGroup,
  pageOfIssuers,
  setCompanyOption,
  setIssuerOption,
  updateCompanyGroup,
  updateIssuer,
  updateIssuerGroup,
} from './repository.ts';

const ISSUER_FIELDS = [
  'number',
  'name1',
  'name2',
  'ica',
  'bankNumber',
  'issuerGroupId',
  'cobrand',
  'cardBins',
  'accountDigits',
] as const;

/**
 * The card settings of an issuer (issue 15 item 1): its card BINs (stored as a comma-separated list of
 * 6–16-digit BINs, ≤ 255 characters) and its account digits to display (1–8). Each problem named.
 */
function checkCardSettings(body: { cardBins?: string | undefined; accountDigits?: number | undefined }): {
  cardBins?: string;
} {
  const errors: Record<string, string> = {};
  let cardBins: string | undefined;
  if (body.cardBins !== undefined) {
    const parsed = parseCardBins(body.cardBins.trim());
    if ('problem' in parsed) errors.cardBins = parsed.problem;
    else cardBins = parsed.bins.join(',');
  }
  if (body.accountDigits !== undefined) {
    const problem = checkAccountDigits(body.accountDigits);
    if (problem) errors.accountDigits = problem;
  }
  const keys = Object.values(errors);
  if (keys.length === 1) throw new AppError('invalid', keys[0] as string, { fieldErrors: errors });
  if (keys.length > 1) throw invalid('issuer', errors);
  return cardBins === undefined ? {} : { cardBins };
}

/**
 * The password settings' before/after for the audit trail. They are settings, not secrets, but the
 * trail drops every field whose name says "password": they go under `minLength` and `durationDays`.
 */
function policyChanges(before: Partial<IssuerPasswordPolicy> | undefined, after: IssuerPasswordPolicy) {
  const changes: AuditChanges = {};
  const pairs = [
    ['minLength', before?.passwordMinLength, after.passwordMinLength],
    ['durationDays', before?.passwordDurationDays, after.passwordDurationDays],
  ] as const;
  for (const [name, was, now] of pairs) {
    if (was !== now) changes[name] = { before: was ?? null, after: now };
  }
  return changes;
}

const summary = (r: IssuerRecord): IssuerSummary => ({
  number: r.number,
  name1: r.name1,
  name2: r.name2,
  ica: r.ica,
  bankNumber: r.bankNumber,
  issuerGroupId: r.issuerGroupId,
  issuerGroupName: r.issuerGroupName,
  cobrand: r.cobrand,
  active: r.active,
});

const invalid = (what: string, fieldErrors: Record<string, string>) =>
  new AppError('invalid', 'form.invalid', { message: `The ${what} has invalid fields`, fieldErrors });

/** A numeric id from a path (groups have no number of their own). */
function idOf(raw: string): number | undefined {
  return /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}

/**
 * The password settings (seed 001 §5) out of range: a 400 naming the setting (one: its own code and
 * message; both: form.invalid), each field's message key in fieldErrors.
 */
function checkPasswordSettings(body: { passwordMinLength?: number; passwordDurationDays?: number }): void {
  const errors = checkIssuerPasswordPolicy(body);
  const keys = Object.values(errors);
  if (keys.length === 0) return;
  if (keys.length > 1) throw invalid('issuer', errors);
  const key = keys[0] as string;
  const message =
    key === 'issuer.passwordMinLength.range'
      ? `The minimum password length must be a whole number from ${LIMITS.passwordMinLength} to ${LIMITS.passwordMaxLength}`
      : `The password duration must be a whole number of days from ${LIMITS.passwordDurationMinDays} to ${LIMITS.passwordDurationMaxDays}`;
  throw new AppError('invalid', key, { message, fieldErrors: errors });
}

export class IssuerService {
  constructor(private readonly db: Db) {}

  /** The issuer by number inside the caller's scope; 404 alike for unknown and out of scope. */
  private async issuer(db: Executor, caller: Caller, number: string): Promise<IssuerRecord> {
    const found = /^\d{1,10}$/.test(number) ? await findIssuerInScope(db, caller, number) : undefined;
    if (!found)
      throw new AppError('notFound', 'issuer.notFound', { message: `No issuer ${number.slice(0, 20)}` });
    return found;
  }

  private audit(
    db: Executor,
    caller: Caller,
    event: AdminAuditEvent,
    entity: string,
    id: string,
    changes: AuditChanges | undefined,
    ip: string,
  ) {
    return auditAdmin(db, event, {
      actor: caller,
      entity,
      entityId: id,
      ...(changes ? { changes } : {}),
      ip,
    });
  }

  // ---- Issuers ----

  async listIssuers(
    caller: Caller,
    query: { q?: string; page?: string; sort?: IssuerSort | undefined; dir?: SortDirection | undefined },
    /** Every match on one page (the CSV export), at most LIMITS.searchMaxResults. */
    all = false,
  ): Promise<IssuerList> {
    const q = query.q?.trim() ?? '';
    if (q !== '') {
      const problem = checkSearchCriteria(q);
      if (problem) {
        throw new AppError('invalid', problem, {
          message: 'Search criteria must be 2 to 100 characters',
          fieldErrors: {
            q: problem,
          },
        });
      }
    }
    const pageSize = all ? LIMITS.searchMaxResults : LIMITS.searchPageSize;
    const total = await countIssuers(this.db, caller, q || undefined, LIMITS.searchMaxResults);
    if (isResultTooLarge(total)) {
      throw new AppError('invalid', 'search.tooLarge', {
        message: 'Result set is too large; please refine your search criteria.',
      });
    }
    const pages = pageCount(total, pageSize);
    const jump =
      query.page === undefined || query.page === '' ? { page: 1 } : checkPageJump(query.page, pages);
    if (jump.problem !== undefined) {
      throw new AppError('invalid', jump.problem, {
        message: `Page must be a whole number from 1 to ${pages}`,
        fieldErrors: {
          page: jump.problem,
        },
      });
    }
    const rows = await pageOfIssuers(
      this.db,
      caller,
      q || undefined,
      jump.page,
      pageSize,
      chosenOrder(ISSUER_LIST_ORDER, query),
    );
    return {
      rows: rows.map(summary),
      total,
      page: jump.page,
      pageCount: pages,
      pageSize,
      canCreate: may(caller, 'createIssuer'),
    };
  }

  async getIssuer(caller: Caller, number: string): Promise<IssuerDetail> {
    const issuer = await this.issuer(this.db, caller, number);
    return {
      ...summary(issuer),
      passwordMinLength: issuer.passwordMinLength,
      passwordDurationDays: issuer.passwordDurationDays,
      cardBins: issuer.cardBins,
      accountDigits: issuer.accountDigits,
      companyCount: await countCompaniesOf(this.db, issuer.id),
      allowed: {
        modify: may(caller, 'modifyIssuer'),
        changeGroup: may(caller, 'createIssuer'),
        changeStatus: may(caller, 'changeIssuerStatus'),
        maintainCompanyGroups: may(caller, 'maintainCompanyGroups'),
        modifyOptions: may(caller, 'modifyIssuerOptions'),
      },
    };
  }

  /** The issuer group (must exist and be active when newly chosen) and co-brand (must exist). */
  private async checkLinks(
    db: Executor,
    caller: Caller,
    body: { issuerGroupId?: number | null; cobrand?: string | null },
    current?: IssuerRecord,
  ): Promise<void> {
    if (body.issuerGroupId != null && body.issuerGroupId !== current?.issuerGroupId) {
      const group = await findIssuerGroupInScope(db, caller, body.issuerGroupId);
      if (!group || !group.active) {
        throw invalid('issuer', { issuerGroupId: 'issuer.issuerGroup.unknown' });
      }
    }
    const cobrand = body.cobrand?.trim();
    if (cobrand && cobrand !== current?.cobrand && !(await cobrandExists(db, cobrand))) {
      throw invalid('issuer', { cobrand: 'issuer.cobrand.unknown' });
    }
  }

  async createIssuer(caller: Caller, body: NewIssuerBody, ip: string): Promise<IssuerDetail> {
    const parsed = issuerSchema.safeParse(body);
    if (!parsed.success) throw invalid('issuer', toFieldErrors(parsed.error));
    checkPasswordSettings(body);
    const card = checkCardSettings(body);
    const issuer = parsed.data;
    await this.db.transaction(async (tx) => {
      await this.checkLinks(tx, caller, body);
      if (await issuerNumberTaken(tx, issuer.number)) {
        throw new AppError('conflict', 'issuer.number.duplicate', {
          message: 'An issuer with this number exists',
          fieldErrors: {
            number: 'issuer.number.duplicate',
          },
        });
      }
      const row = await insertIssuer(tx, {
        ...issuer,
        issuerGroupId: body.issuerGroupId ?? null,
        cobrand: body.cobrand?.trim() || null,
        passwordMinLength: body.passwordMinLength ?? DEFAULT_PASSWORD_POLICY.passwordMinLength,
        passwordDurationDays: body.passwordDurationDays ?? DEFAULT_PASSWORD_POLICY.passwordDurationDays,
        cardBins: card.cardBins ?? '',
        accountDigits: body.accountDigits ?? ACCOUNT_DIGITS_DEFAULT,
      });
      await this.audit(
        tx,
        caller,
        'issuer.created',
        'issuer',
        row.number,
        { ...diffChanges(undefined, row, ISSUER_FIELDS), ...policyChanges(undefined, row) },
        ip,
      );
    });
    return this.getIssuer(caller, issuer.number);
  }

  async updateIssuer(caller: Caller, number: string, patch: IssuerPatch, ip: string): Promise<IssuerDetail> {
    await this.db.transaction(async (tx) => {
      const current = await this.issuer(tx, caller, number);
      if (
        patch.issuerGroupId !== undefined &&
        patch.issuerGroupId !== current.issuerGroupId &&
        !may(caller, 'createIssuer')
      ) {
        throw new AppError('forbidden', 'issuer.issuerGroup.forbidden', {
          message: 'Only a system administrator moves an issuer to another group',
          fieldErrors: { issuerGroupId: 'issuer.issuerGroup.forbidden' },
        });
      }
      const parsed = issuerSchema.safeParse({
        number: current.number,
        name1: patch.name1 ?? current.name1,
        name2: patch.name2 ?? current.name2,
        ica: patch.ica ?? current.ica,
        bankNumber: patch.bankNumber ?? current.bankNumber,
      });
      if (!parsed.success) throw invalid('issuer', toFieldErrors(parsed.error));
      checkPasswordSettings(patch);
      const card = checkCardSettings(patch);
      await this.checkLinks(tx, caller, patch, current);
      const after = {
        ...parsed.data,
        issuerGroupId: patch.issuerGroupId === undefined ? current.issuerGroupId : patch.issuerGroupId,
        cobrand: patch.cobrand === undefined ? current.cobrand : patch.cobrand?.trim() || null,
        passwordMinLength: patch.passwordMinLength ?? current.passwordMinLength,
        passwordDurationDays: patch.passwordDurationDays ?? current.passwordDurationDays,
        cardBins: card.cardBins ?? current.cardBins,
        accountDigits: patch.accountDigits ?? current.accountDigits,
      };
      const changes = { ...diffChanges(current, after, ISSUER_FIELDS), ...policyChanges(current, after) };
      if (Object.keys(changes).length === 0) return;
      await updateIssuer(tx, current.id, { ...after });
      await this.audit(tx, caller, 'issuer.updated', 'issuer', current.number, changes, ip);
    });
    return this.getIssuer(caller, number);
  }

  async setIssuerActive(caller: Caller, number: string, active: boolean, ip: string): Promise<IssuerDetail> {
    await this.db.transaction(async (tx) => {
      const current = await this.issuer(tx, caller, number);
      if (current.active === active) return;
      await updateIssuer(tx, current.id, { active });
      // Its users (own, through their company or company group) are signed out at once (issue 13 item 6).
      if (!active) await endSessionsOfOrganisation(tx, { issuerId: current.id });
      await this.audit(
        tx,
        caller,
        active ? 'issuer.reactivated' : 'issuer.deactivated',
        'issuer',
        current.number,
        { active: { before: current.active, after: active } },
        ip,
      );
    });
    return this.getIssuer(caller, number);
  }

  /** Deletes an issuer nothing refers to; otherwise the catalogue's refusal (make it inactive instead). */
  async deleteIssuer(caller: Caller, number: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.issuer(tx, caller, number);
      // Row lock first, so nothing can start referring to it between the check and the delete.
      await lockIssuer(tx, current.id);
      if (await issuerInUse(tx, current.id)) {
        throw new AppError('conflict', 'issuer.inUse', {
          message: 'Cannot delete as there is data associated with this issuer.',
        });
      }
      await deleteIssuer(tx, current.id);
      await this.audit(tx, caller, 'issuer.deleted', 'issuer', current.number, undefined, ip);
    });
  }

  // ---- Issuer groups ----

  /** Every match of the issuer search as CSV, in the order chosen (issue 20 item 3). */
  async exportIssuers(caller: Caller, query: Parameters<IssuerService['listIssuers']>[1]) {
    const list = await this.listIssuers(caller, { ...query, page: undefined }, true);
    const csv = csvDocument(
      ISSUER_CSV_COLUMNS,
      list.rows.map((issuer) => [
        issuer.number,
        issuer.name1,
        issuer.name2,
        issuer.ica,
        issuer.bankNumber,
        issuer.issuerGroupName ?? '',
        issuer.cobrand ?? '',
        issuer.active ? 'active' : 'inactive',
      ]),
    );
    return { csv, filename: csvFilename('issuers') };
  }

  async listIssuerGroups(caller: Caller): Promise<IssuerGroupList> {
    const rows = await issuerGroupsInScope(this.db, caller);
    return { rows, canMaintain: may(caller, 'maintainIssuerGroups') };
  }

  private async issuerGroup(db: Executor, caller: Caller, rawId: string): Promise<IssuerGroupSummary> {
    const id = idOf(rawId);
    const found = id ? await findIssuerGroupInScope(db, caller, id) : undefined;
    if (!found) throw new AppError('notFound', 'issuerGroup.notFound', { message: 'No such issuer group' });
    return found;
  }

  private groupName(schema: typeof issuerGroupSchema, what: string, body: GroupNameBody): string {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw invalid(what, toFieldErrors(parsed.error));
    return parsed.data.name;
  }

  async createIssuerGroup(caller: Caller, body: GroupNameBody, ip: string): Promise<IssuerGroupSummary> {
    const name = this.groupName(issuerGroupSchema, 'issuer group', body);
    const id = await this.db.transaction(async (tx) => {
      if (await issuerGroupNameTaken(tx, name)) throw duplicateName('issuerGroup');
      const row = await insertIssuerGroup(tx, { name });
      await this.audit(
        tx,
        caller,
        'issuerGroup.created',
        'issuerGroup',
        String(row.id),
        diffChanges(undefined, row, ['name']),
        ip,
      );
      return row.id;
    });
    return this.issuerGroup(this.db, caller, String(id));
  }

  async renameIssuerGroup(
    caller: Caller,
    rawId: string,
    body: GroupNameBody,
    ip: string,
  ): Promise<IssuerGroupSummary> {
    const name = this.groupName(issuerGroupSchema, 'issuer group', body);
    await this.db.transaction(async (tx) => {
      const current = await this.issuerGroup(tx, caller, rawId);
      if (current.name === name) return;
      if (await issuerGroupNameTaken(tx, name, current.id)) throw duplicateName('issuerGroup');
      await updateIssuerGroup(tx, current.id, { name });
      await this.audit(
        tx,
        caller,
        'issuerGroup.updated',
        'issuerGroup',
        String(current.id),
        { name: { before: current.name, after: name } },
        ip,
      );
    });
    return this.issuerGroup(this.db, caller, rawId);
  }

  async setIssuerGroupActive(
    caller: Caller,
    rawId: string,
    active: boolean,
    ip: string,
  ): Promise<IssuerGroupSummary> {
    await this.db.transaction(async (tx) => {
      const current = await this.issuerGroup(tx, caller, rawId);
      await lockIssuerGroup(tx, current.id);
      if (current.active === active) return;
      if (!active && current.activeIssuerCount > 0) {
        throw new AppError('conflict', 'issuerGroup.hasActiveIssuers', {
          message: 'This issuer group still holds active issuers: deactivate or move them first',
        });
      }
      await updateIssuerGroup(tx, current.id, { active });
      await this.audit(
        tx,
        caller,
        active ? 'issuerGroup.reactivated' : 'issuerGroup.deactivated',
        'issuerGroup',
        String(current.id),
        { active: { before: current.active, after: active } },
        ip,
      );
    });
    return this.issuerGroup(this.db, caller, rawId);
  }

  // ---- Company groups ----

  async listCompanyGroups(caller: Caller, number: string): Promise<CompanyGroupList> {
    const issuer = await this.issuer(this.db, caller, number);
    return {
      issuer: { number: issuer.number, name1: issuer.name1 },
      rows: await companyGroupsOf(this.db, caller, issuer.id),
      canMaintain: may(caller, 'maintainCompanyGroups'),
    };
  }

  private async companyGroup(
    db: Executor,
    caller: Caller,
    issuerId: number,
    rawId: string,
  ): Promise<CompanyGroupSummary> {
    const id = idOf(rawId);
    const found = id ? await findCompanyGroup(db, caller, issuerId, id) : undefined;
    if (!found) throw new AppError('notFound', 'companyGroup.notFound', { message: 'No such company group' });
    return found;
  }

  async createCompanyGroup(
    caller: Caller,
    number: string,
    body: GroupNameBody,
    ip: string,
  ): Promise<CompanyGroupSummary> {
    const name = this.groupName(companyGroupSchema, 'company group', body);
    return this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      if (await companyGroupNameTaken(tx, issuer.id, name)) throw duplicateName('companyGroup');
      const row = await insertCompanyGroup(tx, { issuerId: issuer.id, name });
      await this.audit(
        tx,
        caller,
        'companyGroup.created',
        'companyGroup',
        `${issuer.number}/${row.id}`,
        diffChanges(undefined, row, ['name']),
        ip,
      );
      return this.companyGroup(tx, caller, issuer.id, String(row.id));
    });
  }

  async renameCompanyGroup(
    caller: Caller,
    number: string,
    rawId: string,
    body: GroupNameBody,
    ip: string,
  ): Promise<CompanyGroupSummary> {
    const name = this.groupName(companyGroupSchema, 'company group', body);
    return this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const current = await this.companyGroup(tx, caller, issuer.id, rawId);
      if (current.name === name) return current;
      if (await companyGroupNameTaken(tx, issuer.id, name, current.id)) throw duplicateName('companyGroup');
      await updateCompanyGroup(tx, current.id, { name });
      await this.audit(
        tx,
        caller,
        'companyGroup.updated',
        'companyGroup',
        `${issuer.number}/${current.id}`,
        { name: { before: current.name, after: name } },
        ip,
      );
      return { ...current, name };
    });
  }

  async setCompanyGroupActive(
    caller: Caller,
    number: string,
    rawId: string,
    active: boolean,
    ip: string,
  ): Promise<CompanyGroupSummary> {
    return this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const found = await this.companyGroup(tx, caller, issuer.id, rawId);
      // Lock, then read again: a company cannot join between the check and the change.
      await lockCompanyGroup(tx, found.id);
      const current = await this.companyGroup(tx, caller, issuer.id, rawId);
      if (current.active === active) return current;
      if (!active && current.activeCompanyCount > 0) {
        throw new AppError('conflict', 'companyGroup.hasActiveCompanies', {
          message: 'This company group still holds active companies: deactivate or move them first',
        });
      }
      await updateCompanyGroup(tx, current.id, { active });
      await this.audit(
        tx,
        caller,
        active ? 'companyGroup.reactivated' : 'companyGroup.deactivated',
        'companyGroup',
        `${issuer.number}/${current.id}`,
        { active: { before: current.active, after: active } },
        ip,
      );
      return { ...current, active };
    });
  }

  // ---- Program options ----

  private async issuerSettings(db: Executor, issuerId: number): Promise<OptionSettings> {
    const out: OptionSettings = {};
    for (const row of await issuerOptionRows(db, issuerId)) {
      if (isProgramOptionKey(row.key)) out[row.key] = row.enabled;
    }
    return out;
  }

  async issuerOptions(caller: Caller, number: string, db: Executor = this.db): Promise<ProgramOptionsView> {
    const issuer = await this.issuer(db, caller, number);
    const own = await this.issuerSettings(db, issuer.id);
    return {
      level: 'issuer',
      issuer: { number: issuer.number, name1: issuer.name1 },
      canModify: may(caller, 'modifyIssuerOptions'),
      // Only the options whose feature exists (OFFERED_PROGRAM_OPTION_KEYS); stored rows of the others stay unseen.
      options: OFFERED_PROGRAM_OPTION_KEYS.map((key) => ({
        key,
        issuer: own[key] ?? null,
        company: null,
        effective: own[key] === true,
      })),
    };
  }

  async setIssuerOptions(
    caller: Caller,
    number: string,
    body: IssuerOptionsBody,
    ip: string,
  ): Promise<ProgramOptionsView> {
    return this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      await lockIssuer(tx, issuer.id);
      const before = await this.issuerSettings(tx, issuer.id);
      // Seed 001 §6: single sign-on may not be on with self-registration or for a multi-user company.
      if (body.options.singleSignOn === true || body.options.selfRegistration === true) {
        const conflict = await issuerSingleSignOnConflict(tx, issuer.id, { ...before, ...body.options });
        if (conflict) throw ssoConflict(conflict.problem, conflict.companies);
      }
      const changes: AuditChanges = {};
      for (const [key, enabled] of Object.entries(body.options) as [ProgramOptionKey, boolean][]) {
        if ((before[key] ?? null) === enabled) continue;
        await setIssuerOption(tx, issuer.id, key, enabled);
        changes[key] = { before: before[key] ?? null, after: enabled };
      }
      if (Object.keys(changes).length > 0) {
        await this.audit(tx, caller, 'programOption.updated', 'issuer', issuer.number, changes, ip);
      }
      return this.issuerOptions(caller, number, tx);
    });
  }

  private async company(db: Executor, caller: Caller, number: string) {
    const found = /^\d{1,10}$/.test(number) ? await findCompanyInScope(db, caller, number) : undefined;
    if (!found)
      throw new AppError('notFound', 'company.notFound', { message: `No company ${number.slice(0, 20)}` });
    return found;
  }

  async companyOptions(caller: Caller, number: string, db: Executor = this.db): Promise<ProgramOptionsView> {
    const company = await this.company(db, caller, number);
    const levels = await companyOptionLevels(db, company.id);
    return {
      level: 'company',
      issuer: { number: company.issuerNumber, name1: company.issuerName },
      company: { number: company.number, name1: company.name1 },
      canModify: may(caller, 'modifyCompanyOptions'),
      // Only the options whose feature exists (OFFERED_PROGRAM_OPTION_KEYS); stored rows of the others stay unseen.
      options: OFFERED_PROGRAM_OPTION_KEYS.map((key) => ({
        key,
        issuer: levels.issuer[key] ?? null,
        company: levels.company[key] ?? null,
        effective: isFeatureEnabled(key, levels.issuer, levels.company),
      })),
    };
  }

  /**
   * A company's own settings: on, off or null (inherit). A company may only switch off what its issuer
   * switched on: an "on" for an option its issuer has off is refused, naming the options.
   */
  async setCompanyOptions(
    caller: Caller,
    number: string,
    body: CompanyOptionsBody,
    ip: string,
  ): Promise<ProgramOptionsView> {
    return this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, number);
      // The issuer's row lock: its options cannot go off between the check and the write.
      await lockIssuer(tx, company.issuerId);
      const levels = await companyOptionLevels(tx, company.id);
      const entries = Object.entries(body.options) as [ProgramOptionKey, boolean | null][];
      const refused = entries.filter(([key, on]) => on === true && levels.issuer[key] !== true);
      if (refused.length > 0) {
        throw new AppError('conflict', 'programOption.issuerOff', {
          message: `The issuer has these options off, so the company cannot switch them on: ${refused.map(([k]) => k).join(', ')}`,
          fieldErrors: Object.fromEntries(refused.map(([key]) => [key, 'programOption.issuerOff'])),
        });
      }
      const switchedOn = (key: ProgramOptionKey) => key in body.options && body.options[key] !== false;
      if (switchedOn('singleSignOn') || switchedOn('selfRegistration')) {
        const problem = await companySingleSignOnConflict(tx, company.id, { company: body.options });
        if (problem) throw ssoConflict(problem, [company.number]);
      }
      const changes: AuditChanges = {};
      for (const [key, enabled] of entries) {
        const before = levels.company[key] ?? null;
        if (before === enabled) continue;
        await setCompanyOption(tx, company.id, key, enabled);
        changes[key] = { before, after: enabled };
      }
      if (Object.keys(changes).length > 0) {
        await this.audit(tx, caller, 'programOption.updated', 'company', company.number, changes, ip);
      }
      return this.companyOptions(caller, number, tx);
    });
  }
}

/** 409 for an option combination seed 001 §6 forbids, on the single sign-on switch, naming the companies. */
function ssoConflict(problem: ProgramOptionConflict, companyNumbers: string[]): AppError {
  const what =
    problem === 'programOption.ssoWithMultiUser'
      ? `Single sign-on cannot be combined with multi-user (companies ${companyNumbers.join(', ')})`
      : 'Single sign-on cannot be combined with self-registration';
  return new AppError('conflict', problem, { message: what, fieldErrors: { singleSignOn: problem } });
}

function duplicateName(record: 'issuerGroup' | 'companyGroup'): AppError {
  const what = record === 'issuerGroup' ? 'An issuer group' : 'A company group of this issuer';
  return new AppError('conflict', `${record}.name.duplicate`, {
    message: `${what} with this name exists`,
    fieldErrors: {
      name: `${record}.name.duplicate`,
    },
  });
}
