import {
  COMPANY_CSV_COLUMNS,
  COMPANY_LIST_ORDER,
  type CompanyList,
  type CompanyPatch,
  type CompanySort,
  type CompanySummary,
  checkReportingStructure,
  checkSearchCriteria,
  chosenOrder,
  companySchema,
  isResultTooLarge,
  LIMITS,
  may,
  type NewCompanyBody,
  type OrgPointBody,
  type OrgPointNode,
  orgPointSchema,
  type ProgramOptionConflict,
  pageCount,
  REPORTING_UPLOAD_HEADERS,
  type ReportingRow,
  type ReportingStructure,
  type SortDirection,
  toFieldErrors,
  type UploadResult,
  type UploadRowProblem,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, auditAdmin, diffChanges } from '../../kernel/audit.ts';
import { csvDocument, csvFilename } from '../../kernel/spreadsheet.ts';
import { carriesVirusSignature, virusFound } from '../../kernel/uploads.ts';
import { readFirstSheet, writeSheet, XlsxError } from '../../kernel/xlsx.ts';
import { endSessionsOfOrganisation } from '../access/index.ts';
import { companySingleSignOnConflict, isFeatureOn } from '../issuers/index.ts';
import { setCompanyMultiUser } from './organisations.ts';
import {
  type CompanyRecord,
  companyGroupFor,
  companyInUse,
  companyNumberTaken,
  countCompanies,
  deleteCompany,
  deleteOrgPoint,
  findCompanyInScope,
  findIssuerByNumber,
  insertCompany,
  insertOrgPoint,
  lockCompany,
  type OrgPointRow,
  orgPointInUse,
  orgPointsOf,
  pageOfCompanies,
  updateCompany,
  updateOrgPoint,
} from './repository.ts';

const summary = (c: CompanyRecord): CompanySummary => ({
  number: c.number,
  name1: c.name1,
  name2: c.name2,
  issuerNumber: c.issuerNumber,
  issuerName: c.issuerName,
  groupName: c.groupName,
  multiUser: c.multiUser,
  active: c.active,
});

/** 409 for multi-user where single sign-on is in effect (seed 001 §6), on the multi-user field. */
const ssoWithMultiUser = (problem: ProgramOptionConflict) =>
  new AppError('conflict', problem, {
    message: 'Multi-user cannot be combined with single sign-on',
    fieldErrors: {
      multiUser: problem,
    },
  });

/**
 * Creates a company of an issuer (the one rule for the administrators' form and an approved company
 * registration, docs/self-registration.md): its number unused, its group found or made, a multi-user
 * company never inheriting single sign-on, audited as the actor's `company.created`. Run inside the
 * caller's transaction; the company's fields are checked by companySchema first.
 */
export async function addCompany(
  tx: Executor,
  actor: Caller,
  company: {
    issuerId: number;
    number: string;
    name1: string;
    name2: string;
    groupName: string;
    multiUser: boolean;
  },
  ip: string,
) {
  if (await companyNumberTaken(tx, company.number)) {
    throw new AppError('conflict', 'company.number.duplicate', {
      message: 'A company with this number already exists',
      fieldErrors: {
        number: 'company.number.duplicate',
      },
    });
  }
  const groupId = await companyGroupFor(tx, company.issuerId, company.groupName);
  const row = await insertCompany(tx, {
    issuerId: company.issuerId,
    companyGroupId: groupId,
    number: company.number,
    name1: company.name1,
    name2: company.name2,
    multiUser: company.multiUser,
  });
  if (row.multiUser) {
    // Seed 001 §6: a new multi-user company may not inherit its issuer's single sign-on.
    const problem = await companySingleSignOnConflict(tx, row.id, {});
    if (problem) throw ssoWithMultiUser(problem);
  }
  await auditAdmin(tx, 'company.created', {
    actor,
    entity: 'company',
    entityId: row.number,
    changes: diffChanges(undefined, { ...row, groupName: company.groupName }, [
      'number',
      'name1',
      'name2',
      'groupName',
      'multiUser',
    ]),
    ip,
  });
  return row;
}

const headerKey = (h: string) => h.replace(/\s+/g, '').toLowerCase();

export class OrganisationService {
  constructor(private readonly db: Db) {}

  /** The company by number inside the caller's scope; 404 alike for unknown and out of scope. */
  private async company(db: Executor, caller: Caller, number: string): Promise<CompanyRecord> {
    const found = /^\d{1,10}$/.test(number) ? await findCompanyInScope(db, caller, number) : undefined;
    if (!found)
      throw new AppError('notFound', 'company.notFound', { message: `No company ${number.slice(0, 20)}` });
    return found;
  }

  private audit(
    db: Executor,
    caller: Caller,
    event: AdminAuditEvent,
    entity: string,
    id: string,
    changes?: ReturnType<typeof diffChanges>,
    ip?: string,
  ) {
    return auditAdmin(db, event, {
      actor: caller,
      entity,
      entityId: id,
      ...(changes ? { changes } : {}),
      ip: ip ?? null,
    });
  }

  async listCompanies(
    caller: Caller,
    query: {
      q?: string | undefined;
      after?: string | undefined;
      before?: string | undefined;
      sort?: CompanySort | undefined;
      dir?: SortDirection | undefined;
    },
    /** Every match in one read (the CSV export), not one page. */
    all = false,
  ): Promise<CompanyList> {
    const q = query.q?.trim() ?? '';
    if (q !== '') {
      const problem = checkSearchCriteria(q);
      if (problem)
        throw new AppError('invalid', problem, {
          message: 'Search criteria must be 2 to 100 characters',
          fieldErrors: {
            q: problem,
          },
        });
    }
    const pageSize = LIMITS.searchPageSize;
    const total = await countCompanies(this.db, caller, q || undefined, LIMITS.searchMaxResults);
    if (isResultTooLarge(total)) {
      throw new AppError('invalid', 'search.tooLarge', {
        message: 'Result set is too large; please refine your search criteria.',
      });
    }
    const page = await pageOfCompanies(
      this.db,
      caller,
      q || undefined,
      all ? { limit: Math.max(total, 1) } : { after: query.after, before: query.before, limit: pageSize },
      chosenOrder(COMPANY_LIST_ORDER, query),
    );
    return {
      rows: page.rows.map(summary),
      nextCursor: page.nextCursor,
      prevCursor: page.prevCursor,
      total,
      pageCount: pageCount(total, pageSize),
      pageSize,
    };
  }

  /**
   * Every match of the company search as CSV, in the order chosen (issue 20 item 3: a list exports
   * what it shows — all its pages, up to the "Result set is too large" limit the search refuses past).
   */
  async exportCompanies(caller: Caller, query: Parameters<OrganisationService['listCompanies']>[1]) {
    const all = await this.listCompanies(caller, query, true);
    const csv = csvDocument(
      COMPANY_CSV_COLUMNS,
      all.rows.map((c) => [
        c.number,
        c.name1,
        c.name2,
        c.issuerNumber,
        c.issuerName,
        c.groupName ?? '',
        c.multiUser ? 'yes' : 'no',
        c.active ? 'active' : 'inactive',
      ]),
    );
    return { csv, filename: csvFilename('companies') };
  }

  async getCompany(caller: Caller, number: string): Promise<CompanySummary> {
    return summary(await this.company(this.db, caller, number));
  }

  async createCompany(caller: Caller, body: NewCompanyBody, ip: string): Promise<CompanySummary> {
    const parsed = companySchema.safeParse(body);
    if (!parsed.success) {
      throw new AppError('invalid', 'form.invalid', {
        message: 'The company has invalid fields',
        fieldErrors: toFieldErrors(parsed.error),
      });
    }
    const issuer = /^\d{1,10}$/.test(body.issuerNumber)
      ? await findIssuerByNumber(this.db, body.issuerNumber)
      : undefined;
    const issuerInScope =
      issuer &&
      (caller.type === 'Z' ||
        (caller.type === 'H' &&
          caller.issuerGroupId != null &&
          issuer.issuerGroupId === caller.issuerGroupId) ||
        (caller.type === 'I' && caller.issuerId === issuer.id));
    if (!issuer || !issuerInScope) {
      throw new AppError('invalid', 'company.issuerNumber.unknown', {
        message: 'No such issuer in your scope',
        fieldErrors: {
          issuerNumber: 'company.issuerNumber.unknown',
        },
      });
    }
    const company = parsed.data;
    const number = await this.db.transaction(async (tx) => {
      const row = await addCompany(
        tx,
        caller,
        { issuerId: issuer.id, ...company, multiUser: body.multiUser === true },
        ip,
      );
      return row.number;
    });
    return this.getCompany(caller, number);
  }

  async updateCompany(
    caller: Caller,
    number: string,
    patch: CompanyPatch,
    ip: string,
  ): Promise<CompanySummary> {
    await this.db.transaction(async (tx) => {
      const current = await this.company(tx, caller, number);
      const parsed = companySchema.safeParse({
        number: current.number,
        name1: patch.name1 ?? current.name1,
        name2: patch.name2 ?? current.name2,
        groupName: patch.groupName ?? current.groupName ?? '',
      });
      if (!parsed.success) {
        throw new AppError('invalid', 'form.invalid', {
          message: 'The company has invalid fields',
          fieldErrors: toFieldErrors(parsed.error),
        });
      }
      if (current.multiUser && patch.multiUser === false) {
        throw new AppError('conflict', 'company.multiUserCannotBeTurnedOff', {
          message: 'Multi-user cannot be turned off once it is on',
          fieldErrors: { multiUser: 'company.multiUserCannotBeTurnedOff' },
        });
      }
      const groupId =
        patch.groupName === undefined
          ? undefined
          : await companyGroupFor(tx, current.issuerId, parsed.data.groupName);
      await updateCompany(tx, current.id, {
        name1: parsed.data.name1,
        name2: parsed.data.name2,
        ...(groupId !== undefined ? { companyGroupId: groupId } : {}),
      });
      if (patch.multiUser === true && !current.multiUser) {
        // Seed 001 §6: multi-user may not go on where single sign-on is in effect for the company.
        const problem = await companySingleSignOnConflict(tx, current.id, { multiUser: true });
        if (problem) throw ssoWithMultiUser(problem);
        await setCompanyMultiUser(tx, current.id, true);
      }
      const after = { ...current, ...parsed.data, multiUser: current.multiUser || patch.multiUser === true };
      const changes = diffChanges({ ...current }, after, ['name1', 'name2', 'groupName', 'multiUser']);
      if (Object.keys(changes).length > 0)
        await this.audit(tx, caller, 'company.updated', 'company', current.number, changes, ip);
    });
    return this.getCompany(caller, number);
  }

  async setCompanyActive(
    caller: Caller,
    number: string,
    active: boolean,
    ip: string,
  ): Promise<CompanySummary> {
    await this.db.transaction(async (tx) => {
      const current = await this.company(tx, caller, number);
      if (current.active === active) return;
      if (caller.companyId === current.id && !active) {
        throw new AppError('conflict', 'company.ownCompany', {
          message: 'You cannot deactivate your own company',
        });
      }
      await updateCompany(tx, current.id, { active });
      // "locked or inactive user or corp": its users' sessions end at once (loadCaller also refuses them).
      if (!active) await endSessionsOfOrganisation(tx, { companyId: current.id });
      await this.audit(
        tx,
        caller,
        active ? 'company.reactivated' : 'company.deactivated',
        'company',
        current.number,
        { active: { before: current.active, after: active } },
        ip,
      );
    });
    return this.getCompany(caller, number);
  }

  /** Deletes a company nothing refers to; otherwise the catalogue's refusal (make it inactive instead). */
  async deleteCompany(caller: Caller, number: string, ip: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await this.company(tx, caller, number);
      // Row lock first, so nothing can start referring to it between the check and the delete.
      await lockCompany(tx, current.id);
      if (await companyInUse(tx, current.id)) {
        throw new AppError('conflict', 'company.inUse', {
          message: 'Cannot delete as there is data associated with this company.',
        });
      }
      await deleteCompany(tx, current.id);
      await this.audit(tx, caller, 'company.deleted', 'company', current.number, undefined, ip);
    });
  }

  // ---- Reporting structure ----

  async structure(caller: Caller, number: string): Promise<ReportingStructure> {
    const company = await this.company(this.db, caller, number);
    const points = await orgPointsOf(this.db, company.id);
    return {
      company: summary(company),
      canModify: may(caller, 'modifyStructure'),
      roots: toForest(points),
      count: points.length,
    };
  }

  /** The structure as a workbook with the upload's columns: download, edit, upload again. */
  async structureWorkbook(caller: Caller, number: string): Promise<Uint8Array> {
    const company = await this.company(this.db, caller, number);
    const points = await orgPointsOf(this.db, company.id);
    const byId = new Map(points.map((p) => [p.id, p]));
    return writeSheet([
      [...REPORTING_UPLOAD_HEADERS],
      ...points.map((p) => [
        p.number,
        p.name1,
        p.name2,
        String(p.reportingLevel),
        p.reportsToId ? (byId.get(p.reportsToId)?.number ?? '') : '',
      ]),
    ]);
  }

  private parseOrgPoint(body: OrgPointBody) {
    const parsed = orgPointSchema.safeParse(body);
    if (!parsed.success) {
      throw new AppError('invalid', 'form.invalid', {
        message: 'The org point has invalid fields',
        fieldErrors: toFieldErrors(parsed.error),
      });
    }
    return parsed.data;
  }

  /** Whole-structure rules (unknown parent, cycle, level below the parent) for a changed set of rows. */
  private checkStructure(changed: ReportingRow[], existing: OrgPointRow[]): void {
    const byId = new Map(existing.map((p) => [p.id, p]));
    const problems = checkReportingStructure(
      changed,
      existing.map((p) => ({
        number: p.number,
        reportsTo: p.reportsToId ? (byId.get(p.reportsToId)?.number ?? null) : null,
        reportingLevel: p.reportingLevel,
      })),
    );
    const first = problems[0];
    if (first) {
      const field = first.problem.startsWith('orgPoint.reportingLevel')
        ? 'reportingLevel'
        : first.problem === 'orgPoint.number.duplicate'
          ? 'number'
          : 'reportsTo';
      throw new AppError('invalid', first.problem, {
        message: 'The reporting structure would be invalid',
        fieldErrors: {
          [field]: first.problem,
        },
      });
    }
  }

  private findPoint(points: OrgPointRow[], number: string): OrgPointRow | undefined {
    const k = number.trim().toLowerCase();
    return points.find((p) => p.number.toLowerCase() === k);
  }

  async createOrgPoint(
    caller: Caller,
    companyNumber: string,
    body: OrgPointBody,
    ip: string,
  ): Promise<ReportingStructure> {
    const point = this.parseOrgPoint(body);
    await this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, companyNumber);
      await lockStructure(tx, company.id);
      const existing = await orgPointsOf(tx, company.id);
      if (this.findPoint(existing, point.number)) {
        throw new AppError('conflict', 'orgPoint.number.duplicate', {
          message: 'This org point number exists already',
          fieldErrors: {
            number: 'orgPoint.number.duplicate',
          },
        });
      }
      this.checkStructure([point], existing);
      const parent = point.reportsTo ? this.findPoint(existing, point.reportsTo) : undefined;
      await insertOrgPoint(tx, {
        companyId: company.id,
        number: point.number,
        name1: point.name1,
        name2: point.name2,
        reportingLevel: point.reportingLevel,
        reportsToId: parent?.id ?? null,
      });
      await this.audit(
        tx,
        caller,
        'orgPoint.created',
        'orgPoint',
        `${company.number}/${point.number}`,
        diffChanges(undefined, point, ['number', 'name1', 'name2', 'reportingLevel', 'reportsTo']),
        ip,
      );
    });
    return this.structure(caller, companyNumber);
  }

  /**
   * `work` in one transaction holding the company's structure lock, with the company, its org points
   * and the one named (404 when there is none).
   */
  private onPoint<T>(
    caller: Caller,
    companyNumber: string,
    pointNumber: string,
    work: (
      tx: Executor,
      found: { company: CompanyRecord; existing: OrgPointRow[]; current: OrgPointRow },
    ) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      const company = await this.company(tx, caller, companyNumber);
      await lockStructure(tx, company.id);
      const existing = await orgPointsOf(tx, company.id);
      const current = this.findPoint(existing, pointNumber);
      if (!current) throw new AppError('notFound', 'orgPoint.notFound', { message: 'No such org point' });
      return work(tx, { company, existing, current });
    });
  }

  async updateOrgPoint(
    caller: Caller,
    companyNumber: string,
    pointNumber: string,
    body: OrgPointBody,
    ip: string,
  ): Promise<ReportingStructure> {
    await this.onPoint(caller, companyNumber, pointNumber, async (tx, { company, existing, current }) => {
      const byId = new Map(existing.map((p) => [p.id, p]));
      const before = {
        number: current.number,
        name1: current.name1,
        name2: current.name2,
        reportingLevel: current.reportingLevel,
        reportsTo: current.reportsToId ? (byId.get(current.reportsToId)?.number ?? null) : null,
      };
      const point = this.parseOrgPoint({
        number: current.number,
        name1: body.name1 ?? before.name1,
        name2: body.name2 ?? before.name2,
        reportingLevel: body.reportingLevel ?? before.reportingLevel,
        reportsTo: body.reportsTo === undefined ? before.reportsTo : body.reportsTo,
      });
      // Children keep their levels: a move must leave every child below its parent, and no loop.
      const children = existing
        .filter((p) => p.reportsToId === current.id)
        .map((p) => ({ number: p.number, reportsTo: point.number, reportingLevel: p.reportingLevel }));
      this.checkStructure(
        [point, ...children],
        existing.filter((p) => p.id !== current.id && p.reportsToId !== current.id),
      );
      const parent = point.reportsTo ? this.findPoint(existing, point.reportsTo) : undefined;
      await updateOrgPoint(tx, current.id, {
        name1: point.name1,
        name2: point.name2,
        reportingLevel: point.reportingLevel,
        reportsToId: parent?.id ?? null,
      });
      const changes = diffChanges(before, point, ['name1', 'name2', 'reportingLevel', 'reportsTo']);
      if (Object.keys(changes).length > 0) {
        await this.audit(
          tx,
          caller,
          'orgPoint.updated',
          'orgPoint',
          `${company.number}/${current.number}`,
          changes,
          ip,
        );
      }
    });
    return this.structure(caller, companyNumber);
  }

  async setOrgPointActive(
    caller: Caller,
    companyNumber: string,
    pointNumber: string,
    active: boolean,
    ip: string,
  ): Promise<ReportingStructure> {
    await this.onPoint(caller, companyNumber, pointNumber, async (tx, { company, existing, current }) => {
      if (current.active === active) return;
      if (!active && existing.some((p) => p.reportsToId === current.id && p.active)) {
        throw new AppError('conflict', 'orgPoint.hasActiveChildren', {
          message: 'Org points still report to this one',
        });
      }
      if (
        active &&
        current.reportsToId &&
        existing.find((p) => p.id === current.reportsToId)?.active === false
      ) {
        throw new AppError('conflict', 'orgPoint.parentInactive', {
          message: 'The org point it reports to is inactive',
        });
      }
      await updateOrgPoint(tx, current.id, { active });
      await this.audit(
        tx,
        caller,
        active ? 'orgPoint.reactivated' : 'orgPoint.deactivated',
        'orgPoint',
        `${company.number}/${current.number}`,
        { active: { before: current.active, after: active } },
        ip,
      );
    });
    return this.structure(caller, companyNumber);
  }

  async deleteOrgPoint(
    caller: Caller,
    companyNumber: string,
    pointNumber: string,
    ip: string,
  ): Promise<void> {
    await this.onPoint(caller, companyNumber, pointNumber, async (tx, { company, current }) => {
      if (await orgPointInUse(tx, current.id)) {
        throw new AppError('conflict', 'orgPoint.inUse', {
          message: 'Cannot delete as there is data associated with this org point.',
        });
      }
      await deleteOrgPoint(tx, current.id);
      await this.audit(
        tx,
        caller,
        'orgPoint.deleted',
        'orgPoint',
        `${company.number}/${current.number}`,
        undefined,
        ip,
      );
    });
  }

  /**
   * A reporting-structure upload (.xlsx, ≤ 4 MB): the headers, every row's fields, then the whole
   * structure with the company's existing org points (no cycle, known parents, levels below parents).
   * Any problem refuses the whole file with a per-row report; otherwise every row is created or
   * updated in one transaction.
   */
  async upload(caller: Caller, companyNumber: string, file: Uint8Array, ip: string): Promise<UploadResult> {
    const company = await this.company(this.db, caller, companyNumber);
    if (!(await isFeatureOn(this.db, company.id, 'reportingStructureUpload'))) {
      throw new AppError('forbidden', 'programOption.disabled', {
        message: 'Reporting-structure upload is switched off for this company (program option)',
      });
    }
    if (carriesVirusSignature(file)) throw virusFound();
    let sheet: string[][];
    try {
      sheet = readFirstSheet(file);
    } catch (error) {
      if (error instanceof XlsxError) {
        throw new AppError('unsupported', 'upload.unsupportedFormat', {
          message: 'Invalid or Unsupported File Format',
        });
      }
      throw error;
    }
    if (sheet.some((row) => row.some((cell) => carriesVirusSignature(cell)))) throw virusFound();
    const [header = [], ...body] = sheet;
    const columns = REPORTING_UPLOAD_HEADERS.map((h) =>
      header.findIndex((c) => headerKey(c) === headerKey(h)),
    );
    const missing = REPORTING_UPLOAD_HEADERS.filter((_h, i) => columns[i] === -1);
    if (missing.length > 0) {
      throw new AppError('invalid', 'upload.missingHeaders', {
        fieldErrors: { file: 'upload.missingHeaders' },
        ...{ detail: missing.join(', ') },
      });
    }
    const cell = (row: string[], i: number) => (row[columns[i] as number] ?? '').trim();
    const rows = body
      .map((row, i) => ({ sheetRow: i + 2, row }))
      .filter(({ row }) => row.some((c) => c.trim() !== ''));
    if (rows.length === 0)
      throw new AppError('invalid', 'upload.empty', { message: 'The file has no org points' });
    if (rows.length > LIMITS.reportingUploadMaxRows) {
      throw new AppError('invalid', 'upload.tooManyRows', {
        message: `At most ${LIMITS.reportingUploadMaxRows} org points per file`,
      });
    }
    const problems: UploadRowProblem[] = [];
    const points: { sheetRow: number; point: ReturnType<OrganisationService['parseOrgPoint']> }[] = [];
    for (const { sheetRow, row } of rows) {
      const parsed = orgPointSchema.safeParse({
        number: cell(row, 0),
        name1: cell(row, 1),
        name2: cell(row, 2),
        reportingLevel: cell(row, 3) === '' ? undefined : cell(row, 3),
        reportsTo: cell(row, 4),
      });
      if (parsed.success) points.push({ sheetRow, point: parsed.data });
      else
        for (const [field, problem] of Object.entries(toFieldErrors(parsed.error)))
          problems.push({ row: sheetRow, field, problem });
    }
    return this.db.transaction(async (tx) => {
      await lockStructure(tx, company.id);
      const existing = await orgPointsOf(tx, company.id);
      const byId = new Map(existing.map((p) => [p.id, p]));
      const structureProblems = checkReportingStructure(
        points.map((p) => p.point),
        existing.map((p) => ({
          number: p.number,
          reportsTo: p.reportsToId ? (byId.get(p.reportsToId)?.number ?? null) : null,
          reportingLevel: p.reportingLevel,
        })),
      );
      for (const p of structureProblems) {
        const at = points[p.row];
        problems.push({
          row: at?.sheetRow ?? 0,
          field: p.problem.startsWith('orgPoint.reportingLevel')
            ? 'reportingLevel'
            : p.problem === 'orgPoint.number.duplicate'
              ? 'number'
              : 'reportsTo',
          problem: p.problem,
        });
      }
      if (problems.length > 0) {
        problems.sort((a, b) => a.row - b.row);
        throw new AppError('unprocessable', 'upload.rows', {
          message: `${problems.length} problem(s) in the file: nothing was changed`,
          rows: problems.slice(0, 500),
        });
      }
      let created = 0;
      let updated = 0;
      const idOf = new Map(existing.map((p) => [p.number.toLowerCase(), p.id]));
      for (const { point } of points) {
        const id = idOf.get(point.number.toLowerCase());
        if (id) {
          await updateOrgPoint(tx, id, {
            name1: point.name1,
            name2: point.name2,
            reportingLevel: point.reportingLevel,
          });
          updated++;
        } else {
          const row = await insertOrgPoint(tx, {
            companyId: company.id,
            number: point.number,
            name1: point.name1,
            name2: point.name2,
            reportingLevel: point.reportingLevel,
          });
          idOf.set(point.number.toLowerCase(), row.id);
          created++;
        }
      }
      // Parents once every row exists (a row may report to one further down the file).
      for (const { point } of points) {
        const id = idOf.get(point.number.toLowerCase());
        if (id !== undefined)
          await updateOrgPoint(tx, id, {
            reportsToId: point.reportsTo ? (idOf.get(point.reportsTo.toLowerCase()) ?? null) : null,
          });
      }
      await auditAdmin(tx, 'orgPoint.uploaded', {
        actor: caller,
        entity: 'company',
        entityId: company.number,
        ip,
        detail: { created, updated, bytes: file.byteLength },
      });
      return { created, updated };
    });
  }
}

/** Serialises changes to one company's structure (two uploads at once cannot interleave into a loop). */
async function lockStructure(tx: Executor, companyId: number): Promise<void> {
  await lockCompany(tx, companyId);
}

function toForest(points: OrgPointRow[]): OrgPointNode[] {
  const nodes = new Map<number, OrgPointNode>();
  const byId = new Map(points.map((p) => [p.id, p]));
  for (const p of points) {
    nodes.set(p.id, {
      number: p.number,
      name1: p.name1,
      name2: p.name2,
      reportingLevel: p.reportingLevel,
      reportsTo: p.reportsToId ? (byId.get(p.reportsToId)?.number ?? null) : null,
      active: p.active,
      children: [],
    });
  }
  const roots: OrgPointNode[] = [];
  for (const p of points) {
    const node = nodes.get(p.id) as OrgPointNode;
    const parent = p.reportsToId ? nodes.get(p.reportsToId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
