import {
  type ApprovalProfile,
  type ApprovalProfileBody,
  type ApprovalThreshold,
  type ApprovalThresholdBody,
  approvalPercentageProblem,
  approvalProfileBodySchema,
  approvalThresholdBodySchema,
  currencyExponent,
  decimalOfMinor,
  decimalOfScaled,
  EXPENSE_LIMITS,
  type ExpenseCategory,
  type ExpensePolicy,
  type ExpensePolicyBody,
  type ExpenseSettings,
  type ExpenseType,
  type ExpenseTypeBody,
  expenseNameKey,
  expenseNameProblem,
  expensePolicyBodySchema,
  expensePolicyProblems,
  expenseTypeBodySchema,
  expenseTypeProblems,
  isAccountDataReadOnly,
  type MileageRate,
  type MileageRateBody,
  type MileageUnit,
  type Money,
  may,
  mileageRateBodySchema,
  mileageRateOf,
  positiveMinor,
  type TaxRate,
  type TaxRateBody,
  taxRateBodySchema,
  taxRateOf,
} from '@cardportal/domain';
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { deleteById, insertRow, updateById } from '../../db/rows.ts';
import {
  approvalProfileMembers,
  approvalProfiles,
  approvalThresholds,
  expenseLines,
  expensePolicies,
  expensePolicyLimits,
  expenseTypes,
  mileageRates,
  taxRates,
  users,
} from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { type AdminAuditEvent, type AuditChanges, auditAdmin } from '../../kernel/audit.ts';
import { type CompanyRef, companyInScope, idOf, lockCompany } from '../accounts/index.ts';
import type { ExpenseReportService } from './reports.ts';

/**
 * A company's expense configuration (issue 17 item 1, docs/expenses.md): expense types, the policy,
 * mileage rates, tax rates, approval profiles and thresholds. Seen by the administrators in scope,
 * changed by the company's (the system administrator reads only); every change is one database
 * transaction under the company's lock (limits and unique names hold under concurrent changes) and is
 * audited with what it changed.
 */

type TypeRow = typeof expenseTypes.$inferSelect;
type PolicyRow = typeof expensePolicies.$inferSelect;
type LimitRow = typeof expensePolicyLimits.$inferSelect;
type RateRow = typeof mileageRates.$inferSelect;
type TaxRow = typeof taxRates.$inferSelect;
type ProfileRow = typeof approvalProfiles.$inferSelect;
type ThresholdRow = typeof approvalThresholds.$inferSelect;

const invalid = (fieldErrors: Record<string, string>, what: string) =>
  new AppError('invalid', Object.values(fieldErrors)[0] as string, {
    message: `The ${what} has invalid fields`,
    fieldErrors,
  });

const notFound = (code: string) => new AppError('notFound', code, { message: 'No such record' });

const full = (code: string, message: string) => new AppError('conflict', code, { message });

/** A currency's decimals, or the field's refusal when the code is not ISO 4217 money. */
function exponentOf(currency: string, field: string, code: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) throw invalid({ [field]: code }, 'setting');
  return exponent;
}

const money = (minor: bigint, currency: string): Money => ({
  minor: minor.toString(),
  currency,
  exponent: currencyExponent(currency) ?? 2,
});

/** An optional positive amount in major units; null when empty. */
function optionalMinor(
  text: string | null | undefined,
  exponent: number,
  field: string,
  problems: Record<string, string>,
): bigint | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  const parsed = positiveMinor(text, exponent);
  if ('problem' in parsed) {
    problems[field] ??= parsed.problem;
    return null;
  }
  return parsed.minor;
}

/** The changes an audit row names, amounts as text (a bigint is not JSON). */
function changed(before: Record<string, unknown> | undefined, after: Record<string, unknown>): AuditChanges {
  const out: AuditChanges = {};
  const norm = (v: unknown) =>
    typeof v === 'bigint' ? v.toString() : Array.isArray(v) ? JSON.stringify(v) : (v ?? null);
  for (const [field, value] of Object.entries(after)) {
    const a = norm(before?.[field]);
    const b = norm(value);
    if (a !== b) out[field] = { before: before ? a : null, after: b } as AuditChanges[string];
  }
  return out;
}

/** Refuses deleting a part of the set-up a report's line uses (409 "Cannot delete …"; deactivate it instead). */
async function refuseInUse(tx: Executor, uses: SQL, code: string, what: string): Promise<void> {
  const [line] = await tx.select({ id: expenseLines.id }).from(expenseLines).where(uses).limit(1);
  if (line) throw full(code, `Cannot delete as there is data associated with this ${what}.`);
}

export class ExpenseSettingsService {
  constructor(
    private readonly db: Db,
    /** Held reports are submitted again in the transaction that saves a policy (reports.ts). */
    private readonly reports?: Pick<ExpenseReportService, 'resubmitHeld' | 'kickMail'>,
  ) {}

  /** Runs `fn` in a transaction holding the company's lock (counts and names stay true meanwhile). */
  private changeIn<T>(caller: Caller, number: string, fn: (tx: Executor, company: CompanyRef) => Promise<T>) {
    return this.db.transaction(async (tx) => {
      const company = await companyInScope(tx, caller, number);
      await lockCompany(tx, company.id);
      return fn(tx, company);
    });
  }

  private audit(
    tx: Executor,
    caller: Caller,
    event: AdminAuditEvent,
    entity: string,
    id: number,
    company: CompanyRef,
    changes: AuditChanges | undefined,
    name: string,
    ip: string,
  ) {
    return auditAdmin(tx, event, {
      actor: caller,
      entity,
      entityId: String(id),
      changes,
      ip,
      detail: { company: company.number, name },
    });
  }

  async get(caller: Caller, number: string): Promise<ExpenseSettings> {
    const company = await companyInScope(this.db, caller, number);
    const db = this.db;
    const [types, policy, limits, rates, taxes, profiles, thresholds] = await Promise.all([
      typesOf(db, company.id),
      db.select().from(expensePolicies).where(eq(expensePolicies.companyId, company.id)),
      db.select().from(expensePolicyLimits).where(eq(expensePolicyLimits.companyId, company.id)),
      db
        .select()
        .from(mileageRates)
        .where(eq(mileageRates.companyId, company.id))
        .orderBy(asc(mileageRates.nameKey)),
      db.select().from(taxRates).where(eq(taxRates.companyId, company.id)).orderBy(asc(taxRates.nameKey)),
      profilesOf(db, company.id),
      thresholdsOf(db, company.id),
    ]);
    const members = await membersOf(
      db,
      profiles.map((p) => p.id),
    );
    const policyRow = policy[0];
    return {
      company: company.number,
      types: types.map((t) => toType(t, policyRow, limits)),
      policy: policyRow ? toPolicy(policyRow, limits) : null,
      mileageRates: rates.map(toRate),
      taxRates: taxes.map(toTax),
      approvalProfiles: profiles.map((p) => toProfile(p, members, thresholds)),
      thresholds: thresholds.map((t) => toThreshold(t, profiles)),
      canModify: may(caller, 'maintainExpenseSettings'),
      readOnly: isAccountDataReadOnly(caller.type),
    };
  }

  // Expense types.

  private checkedType(input: ExpenseTypeBody, others: readonly TypeRow[]) {
    const body = expenseTypeBodySchema.parse(input);
    const def = {
      name: body.name.trim(),
      category: body.category as ExpenseCategory,
      properties: body.properties.map((p) => ({ label: p.label.trim(), kind: p.kind, required: p.required })),
      active: body.active,
    };
    const problems = expenseTypeProblems(def);
    if (others.some((o) => o.nameKey === expenseNameKey(def.name)))
      problems.name ??= 'expenseType.name.duplicate';
    if (Object.keys(problems).length > 0) throw invalid(problems, 'expense type');
    return def;
  }

  saveType(caller: Caller, number: string, idText: string | undefined, input: ExpenseTypeBody, ip: string) {
    return this.changeIn(caller, number, async (tx, company): Promise<ExpenseType> => {
      const rows = await typesOf(tx, company.id);
      const current = idText === undefined ? undefined : rows.find((r) => r.id === idOf(idText));
      if (idText !== undefined && !current) throw notFound('expenseType.notFound');
      if (!current && rows.length >= EXPENSE_LIMITS.typesPerCompany)
        throw full('expenseType.tooMany', 'A company has at most 50 expense types');
      const def = this.checkedType(
        input,
        rows.filter((r) => r.id !== current?.id),
      );
      const values = { ...def, nameKey: expenseNameKey(def.name) };
      const row = current
        ? { ...current, ...values }
        : await insertRow(tx, expenseTypes, { companyId: company.id, ...values });
      if (current) await updateById(tx, expenseTypes, current.id, values);
      await this.audit(
        tx,
        caller,
        current ? 'expenseType.updated' : 'expenseType.created',
        'expenseType',
        row.id,
        company,
        changed(current && typeAudit(current), typeAudit(row)),
        def.name,
        ip,
      );
      const [policy] = await tx
        .select()
        .from(expensePolicies)
        .where(eq(expensePolicies.companyId, company.id));
      const limits = await tx
        .select()
        .from(expensePolicyLimits)
        .where(eq(expensePolicyLimits.typeId, row.id));
      return toType(row, policy, limits);
    });
  }

  deleteType(caller: Caller, number: string, idText: string, ip: string) {
    return this.changeIn(caller, number, async (tx, company) => {
      const current = await oneOf(tx, expenseTypes, company.id, idText, 'expenseType.notFound');
      // The policy's limit for it goes with it (expense_policy_limits cascades); one a line uses stays.
      await refuseInUse(tx, eq(expenseLines.typeId, current.id), 'expenseType.inUse', 'expense type');
      await deleteById(tx, expenseTypes, current.id);
      await this.audit(
        tx,
        caller,
        'expenseType.deleted',
        'expenseType',
        current.id,
        company,
        undefined,
        current.name,
        ip,
      );
    });
  }

  // The policy.

  async savePolicy(caller: Caller, number: string, input: ExpensePolicyBody, ip: string) {
    const { policy, mails } = await this.writePolicy(caller, number, input, ip);
    if (mails > 0) this.reports?.kickMail();
    return policy;
  }

  private writePolicy(caller: Caller, number: string, input: ExpensePolicyBody, ip: string) {
    return this.changeIn(caller, number, async (tx, company) => {
      const body = expensePolicyBodySchema.parse(input);
      const currency = body.currency.trim().toUpperCase();
      const exponent = exponentOf(currency, 'currency', 'expensePolicy.currency.invalid');
      const problems = expensePolicyProblems({
        descriptionMaxLength: body.descriptionMaxLength,
        workflowInstructions: body.workflowInstructions,
      });
      const receiptAboveMinor = optionalMinor(body.receiptAbove, exponent, 'receiptAbove', problems);
      const types = new Set((await typesOf(tx, company.id)).map((t) => t.id));
      const seen = new Set<number>();
      const limits: { typeId: number; limitMinor: bigint | null; receiptAboveMinor: bigint | null }[] = [];
      for (const [i, line] of body.limits.entries()) {
        if (!types.has(line.typeId) || seen.has(line.typeId)) {
          problems[`limits.${i}.typeId`] ??= 'expensePolicy.limits.type';
          continue;
        }
        seen.add(line.typeId);
        const limitMinor = optionalMinor(line.limit, exponent, `limits.${i}.limit`, problems);
        const receipt = optionalMinor(line.receiptAbove, exponent, `limits.${i}.receiptAbove`, problems);
        if (limitMinor !== null || receipt !== null)
          limits.push({ typeId: line.typeId, limitMinor, receiptAboveMinor: receipt });
      }
      if (Object.keys(problems).length > 0) throw invalid(problems, 'expense policy');
      const [before] = await tx
        .select()
        .from(expensePolicies)
        .where(eq(expensePolicies.companyId, company.id));
      const values = {
        currency,
        receiptAboveMinor,
        descriptionMaxLength: body.descriptionMaxLength,
        workflowInstructions: body.workflowInstructions.trim(),
        updatedAt: new Date(),
      };
      const [row] = before
        ? await tx
            .update(expensePolicies)
            .set(values)
            .where(eq(expensePolicies.companyId, company.id))
            .returning()
        : await tx
            .insert(expensePolicies)
            .values({ companyId: company.id, ...values })
            .returning();
      if (!row) throw new Error('policy not written');
      await tx.delete(expensePolicyLimits).where(eq(expensePolicyLimits.companyId, company.id));
      if (limits.length > 0)
        await tx.insert(expensePolicyLimits).values(limits.map((l) => ({ companyId: company.id, ...l })));
      const saved = await tx
        .select()
        .from(expensePolicyLimits)
        .where(eq(expensePolicyLimits.companyId, company.id));
      const changes = changed(before && policyAudit(before), policyAudit(row));
      changes.limits = { before: null, after: limits.length };
      await this.audit(
        tx,
        caller,
        'expensePolicy.saved',
        'expensePolicy',
        company.id,
        company,
        changes,
        company.number,
        ip,
      );
      // Seed 001 §4: reports held for want of a policy are submitted again now.
      const mails = (await this.reports?.resubmitHeld(tx, company.id)) ?? 0;
      return { policy: toPolicy(row, saved) as ExpensePolicy, mails };
    });
  }

  // Mileage rates.

  saveMileageRate(
    caller: Caller,
    number: string,
    idText: string | undefined,
    input: MileageRateBody,
    ip: string,
  ) {
    return this.changeIn(caller, number, async (tx, company): Promise<MileageRate> => {
      const body = mileageRateBodySchema.parse(input);
      const rows = await tx.select().from(mileageRates).where(eq(mileageRates.companyId, company.id));
      const current = idText === undefined ? undefined : rows.find((r) => r.id === idOf(idText));
      if (idText !== undefined && !current) throw notFound('mileageRate.notFound');
      if (!current && rows.length >= EXPENSE_LIMITS.mileageRatesPerCompany)
        throw full('mileageRate.tooMany', 'A company has at most 50 mileage rates');
      const problems: Record<string, string> = {};
      const name = body.name.trim();
      const nameProblem = expenseNameProblem('mileageRate', name);
      if (nameProblem) problems.name = nameProblem;
      const currency = body.currency.trim().toUpperCase();
      if (currencyExponent(currency) === undefined) problems.currency = 'mileageRate.currency.invalid';
      const rate = mileageRateOf(body.rate);
      if ('problem' in rate) problems.rate = rate.problem;
      const others = rows.filter((r) => r.id !== current?.id);
      if (others.some((o) => o.nameKey === expenseNameKey(name)))
        problems.name ??= 'mileageRate.name.duplicate';
      if (
        'scaled' in rate &&
        others.some((o) => o.unit === body.unit && o.currency === currency && o.rateE4 === rate.scaled)
      )
        problems.rate ??= 'mileageRate.rate.duplicate';
      if (Object.keys(problems).length > 0 || !('scaled' in rate)) throw invalid(problems, 'mileage rate');
      const values = {
        name,
        nameKey: expenseNameKey(name),
        unit: body.unit,
        currency,
        rateE4: rate.scaled,
        active: body.active,
      };
      const row = current
        ? { ...current, ...values }
        : await insertRow(tx, mileageRates, { companyId: company.id, ...values });
      if (current) await updateById(tx, mileageRates, current.id, values);
      await this.audit(
        tx,
        caller,
        current ? 'mileageRate.updated' : 'mileageRate.created',
        'mileageRate',
        row.id,
        company,
        changed(current && rateAudit(current), rateAudit(row)),
        name,
        ip,
      );
      return toRate(row);
    });
  }

  deleteMileageRate(caller: Caller, number: string, idText: string, ip: string) {
    return this.changeIn(caller, number, async (tx, company) => {
      const current = await oneOf(tx, mileageRates, company.id, idText, 'mileageRate.notFound');
      await refuseInUse(tx, eq(expenseLines.mileageRateId, current.id), 'mileageRate.inUse', 'mileage rate');
      await deleteById(tx, mileageRates, current.id);
      await this.audit(
        tx,
        caller,
        'mileageRate.deleted',
        'mileageRate',
        current.id,
        company,
        undefined,
        current.name,
        ip,
      );
    });
  }

  // Tax rates.

  saveTaxRate(caller: Caller, number: string, idText: string | undefined, input: TaxRateBody, ip: string) {
    return this.changeIn(caller, number, async (tx, company): Promise<TaxRate> => {
      const body = taxRateBodySchema.parse(input);
      const rows = await tx.select().from(taxRates).where(eq(taxRates.companyId, company.id));
      const current = idText === undefined ? undefined : rows.find((r) => r.id === idOf(idText));
      if (idText !== undefined && !current) throw notFound('taxRate.notFound');
      if (!current && rows.length >= EXPENSE_LIMITS.taxRatesPerCompany)
        throw full('taxRate.tooMany', 'A company has at most 10 tax rates');
      const problems: Record<string, string> = {};
      const name = body.name.trim();
      const nameProblem = expenseNameProblem('taxRate', name);
      if (nameProblem) problems.name = nameProblem;
      if (rows.some((o) => o.id !== current?.id && o.nameKey === expenseNameKey(name)))
        problems.name ??= 'taxRate.name.duplicate';
      const rate = taxRateOf(body.rate);
      if ('problem' in rate) problems.rate = rate.problem;
      if (Object.keys(problems).length > 0 || !('scaled' in rate)) throw invalid(problems, 'tax rate');
      const values = { name, nameKey: expenseNameKey(name), rateE3: rate.scaled, active: body.active };
      const row = current
        ? { ...current, ...values }
        : await insertRow(tx, taxRates, { companyId: company.id, ...values });
      if (current) await updateById(tx, taxRates, current.id, values);
      await this.audit(
        tx,
        caller,
        current ? 'taxRate.updated' : 'taxRate.created',
        'taxRate',
        row.id,
        company,
        changed(current && taxAudit(current), taxAudit(row)),
        name,
        ip,
      );
      return toTax(row);
    });
  }

  deleteTaxRate(caller: Caller, number: string, idText: string, ip: string) {
    return this.changeIn(caller, number, async (tx, company) => {
      const current = await oneOf(tx, taxRates, company.id, idText, 'taxRate.notFound');
      await refuseInUse(tx, eq(expenseLines.taxRateId, current.id), 'taxRate.inUse', 'tax rate');
      await deleteById(tx, taxRates, current.id);
      await this.audit(
        tx,
        caller,
        'taxRate.deleted',
        'taxRate',
        current.id,
        company,
        undefined,
        current.name,
        ip,
      );
    });
  }

  // Approval profiles.

  saveProfile(
    caller: Caller,
    number: string,
    idText: string | undefined,
    input: ApprovalProfileBody,
    ip: string,
  ) {
    return this.changeIn(caller, number, async (tx, company): Promise<ApprovalProfile> => {
      const body = approvalProfileBodySchema.parse(input);
      const rows = await profilesOf(tx, company.id);
      const current = idText === undefined ? undefined : rows.find((r) => r.id === idOf(idText));
      if (idText !== undefined && !current) throw notFound('approvalProfile.notFound');
      if (!current && rows.length >= EXPENSE_LIMITS.approvalProfilesPerCompany)
        throw full('approvalProfile.tooMany', 'A company has at most 50 approval profiles');
      const problems: Record<string, string> = {};
      const name = body.name.trim();
      const nameProblem = expenseNameProblem('approvalProfile', name);
      if (nameProblem) problems.name = nameProblem;
      if (rows.some((o) => o.id !== current?.id && o.nameKey === expenseNameKey(name)))
        problems.name ??= 'approvalProfile.name.duplicate';
      const currency = body.currency.trim().toUpperCase();
      const exponent = currencyExponent(currency);
      if (exponent === undefined) problems.currency = 'approvalProfile.currency.invalid';
      let limitMinor = 0n;
      // Seed 001 §8: "Approval limit is required".
      if (body.limit.trim() === '') problems.limit = 'approvalProfile.limit.required';
      else if (exponent !== undefined) {
        const parsed = positiveMinor(body.limit, exponent);
        if ('problem' in parsed) problems.limit = parsed.problem;
        else limitMinor = parsed.minor;
      }
      const percentage = approvalPercentageProblem(body.approvalPercentage);
      if (percentage) problems.approvalPercentage = percentage;
      const wanted = [...new Set(body.approvers.map((u) => u.trim().toLowerCase()).filter((u) => u !== ''))];
      if (wanted.length > EXPENSE_LIMITS.profileMembersMax)
        problems.approvers = 'approvalProfile.approvers.tooMany';
      const found = wanted.length
        ? await tx
            .select({ id: users.id, userId: users.userId, status: users.status })
            .from(users)
            .where(and(eq(users.companyId, company.id), inArray(users.userId, wanted)))
        : [];
      if (found.length !== wanted.length || found.some((u) => u.status !== 'Active'))
        problems.approvers ??= 'approvalProfile.approvers.unknown';
      if (found.length > 0 && !problems.approvers) {
        const elsewhere = await tx
          .select({ profileId: approvalProfileMembers.profileId })
          .from(approvalProfileMembers)
          .where(
            inArray(
              approvalProfileMembers.userId,
              found.map((u) => u.id),
            ),
          );
        if (elsewhere.some((m) => m.profileId !== current?.id))
          problems.approvers = 'approvalProfile.approvers.taken';
      }
      if (Object.keys(problems).length > 0) throw invalid(problems, 'approval profile');
      const values = {
        name,
        nameKey: expenseNameKey(name),
        currency,
        limitMinor,
        approvalPercentage: body.approvalPercentage,
        active: body.active,
      };
      const row = current
        ? { ...current, ...values }
        : await insertRow(tx, approvalProfiles, { companyId: company.id, ...values });
      if (current) await updateById(tx, approvalProfiles, current.id, values);
      const before = current ? (await membersOf(tx, [current.id])).map((m) => m.userId).sort() : [];
      await tx.delete(approvalProfileMembers).where(eq(approvalProfileMembers.profileId, row.id));
      if (found.length > 0)
        await tx
          .insert(approvalProfileMembers)
          .values(found.map((u) => ({ profileId: row.id, userId: u.id })));
      await this.audit(
        tx,
        caller,
        current ? 'approvalProfile.updated' : 'approvalProfile.created',
        'approvalProfile',
        row.id,
        company,
        changed(current && { ...profileAudit(current), approvers: before }, {
          ...profileAudit(row),
          approvers: found.map((u) => u.userId).sort(),
        }),
        name,
        ip,
      );
      return toProfile(row, await membersOf(tx, [row.id]), await thresholdsOf(tx, company.id));
    });
  }

  deleteProfile(caller: Caller, number: string, idText: string, ip: string) {
    return this.changeIn(caller, number, async (tx, company) => {
      const current = await oneOf(tx, approvalProfiles, company.id, idText, 'approvalProfile.notFound');
      const routed = await tx
        .select({ id: approvalThresholds.id })
        .from(approvalThresholds)
        .where(eq(approvalThresholds.profileId, current.id))
        .limit(1);
      if (routed.length > 0)
        throw new AppError('conflict', 'approvalProfile.inUse', {
          message: 'Cannot delete as there is data associated with this approval profile.',
        });
      await deleteById(tx, approvalProfiles, current.id);
      await this.audit(
        tx,
        caller,
        'approvalProfile.deleted',
        'approvalProfile',
        current.id,
        company,
        undefined,
        current.name,
        ip,
      );
    });
  }

  // Approval thresholds.

  createThreshold(caller: Caller, number: string, input: ApprovalThresholdBody, ip: string) {
    return this.changeIn(caller, number, async (tx, company): Promise<ApprovalThreshold> => {
      const body = approvalThresholdBodySchema.parse(input);
      const rows = await thresholdsOf(tx, company.id);
      if (rows.length >= EXPENSE_LIMITS.approvalThresholdsPerCompany)
        throw full('approvalThreshold.tooMany', 'A company has at most 20 approval thresholds');
      const problems: Record<string, string> = {};
      const currency = body.currency.trim().toUpperCase();
      const exponent = currencyExponent(currency);
      if (exponent === undefined) problems.currency = 'approvalThreshold.currency.invalid';
      let amountMinor = 0n;
      if (exponent !== undefined) {
        const parsed = positiveMinor(body.amount, exponent);
        if ('problem' in parsed) problems.amount = parsed.problem;
        else amountMinor = parsed.minor;
      }
      if (rows.some((r) => r.currency === currency && r.amountMinor === amountMinor))
        problems.amount ??= 'approvalThreshold.amount.duplicate';
      const profiles = await profilesOf(tx, company.id);
      const profile = profiles.find((p) => p.id === body.profileId);
      if (!profile) problems.profileId = 'approvalThreshold.profile.unknown';
      if (Object.keys(problems).length > 0 || !profile) throw invalid(problems, 'approval threshold');
      const row = await insertRow(tx, approvalThresholds, {
        companyId: company.id,
        currency,
        amountMinor,
        profileId: profile.id,
      });
      await this.audit(
        tx,
        caller,
        'approvalThreshold.created',
        'approvalThreshold',
        row.id,
        company,
        changed(undefined, {
          amount: decimalOfMinor(amountMinor, exponent ?? 2),
          currency,
          profile: profile.name,
        }),
        profile.name,
        ip,
      );
      return toThreshold(row, profiles);
    });
  }

  deleteThreshold(caller: Caller, number: string, idText: string, ip: string) {
    return this.changeIn(caller, number, async (tx, company) => {
      const current = await oneOf(tx, approvalThresholds, company.id, idText, 'approvalThreshold.notFound');
      await deleteById(tx, approvalThresholds, current.id);
      await this.audit(
        tx,
        caller,
        'approvalThreshold.deleted',
        'approvalThreshold',
        current.id,
        company,
        undefined,
        `${current.currency} ${current.amountMinor}`,
        ip,
      );
    });
  }
}

// Reads.

const typesOf = (db: Executor, companyId: number) =>
  db
    .select()
    .from(expenseTypes)
    .where(eq(expenseTypes.companyId, companyId))
    .orderBy(asc(expenseTypes.nameKey));

const profilesOf = (db: Executor, companyId: number) =>
  db
    .select()
    .from(approvalProfiles)
    .where(eq(approvalProfiles.companyId, companyId))
    .orderBy(asc(approvalProfiles.nameKey));

const thresholdsOf = (db: Executor, companyId: number) =>
  db
    .select()
    .from(approvalThresholds)
    .where(eq(approvalThresholds.companyId, companyId))
    .orderBy(asc(approvalThresholds.currency), asc(approvalThresholds.amountMinor));

async function membersOf(db: Executor, profileIds: readonly number[]) {
  if (profileIds.length === 0) return [];
  return db
    .select({
      profileId: approvalProfileMembers.profileId,
      userId: users.displayUserId,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(approvalProfileMembers)
    .innerJoin(users, eq(users.id, approvalProfileMembers.userId))
    .where(inArray(approvalProfileMembers.profileId, [...profileIds]))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

type TableOfCompany =
  | typeof expenseTypes
  | typeof mileageRates
  | typeof taxRates
  | typeof approvalProfiles
  | typeof approvalThresholds;

/** The company's record the path names (locked), or 404 — one of another company is unknown here. */
async function oneOf<T extends TableOfCompany>(
  db: Executor,
  table: T,
  companyId: number,
  idText: string,
  code: string,
): Promise<T['$inferSelect']> {
  const id = idOf(idText);
  if (id === undefined) throw notFound(code);
  const [row] = (await db
    .select()
    .from(table as typeof expenseTypes)
    .where(and(eq(table.id, id), eq(table.companyId, companyId)))
    .for('update')) as T['$inferSelect'][];
  if (!row) throw notFound(code);
  return row;
}

// What audit rows name of each record: amounts and rates as decimals, as the screens show them.

const typeAudit = (r: TypeRow) => ({
  name: r.name,
  category: r.category,
  properties: r.properties,
  active: r.active,
});
const minorText = (minor: bigint | null, currency: string) =>
  minor === null ? null : decimalOfMinor(minor, currencyExponent(currency) ?? 2);
const policyAudit = (r: PolicyRow) => ({
  currency: r.currency,
  receiptAbove: minorText(r.receiptAboveMinor, r.currency),
  descriptionMaxLength: r.descriptionMaxLength,
  workflowInstructions: r.workflowInstructions,
});
const rateAudit = (r: RateRow) => ({
  name: r.name,
  unit: r.unit,
  currency: r.currency,
  rate: toRate(r).rate,
  active: r.active,
});
const taxAudit = (r: TaxRow) => ({ name: r.name, rate: toTax(r).rate, active: r.active });
const profileAudit = (r: ProfileRow) => ({
  name: r.name,
  currency: r.currency,
  limit: minorText(r.limitMinor, r.currency),
  approvalPercentage: r.approvalPercentage,
  active: r.active,
});

// Answers.

function toType(row: TypeRow, policy: PolicyRow | undefined, limits: readonly LimitRow[]): ExpenseType {
  const own = policy ? limits.find((l) => l.typeId === row.id) : undefined;
  const receipt = own?.receiptAboveMinor ?? policy?.receiptAboveMinor ?? null;
  return {
    id: row.id,
    name: row.name,
    category: row.category as ExpenseCategory,
    properties: row.properties,
    active: row.active,
    limit: policy && own?.limitMinor ? money(own.limitMinor, policy.currency) : null,
    receiptAbove: policy && receipt !== null ? money(receipt, policy.currency) : null,
  };
}

function toPolicy(row: PolicyRow, limits: readonly LimitRow[]): ExpensePolicy {
  const m = (minor: bigint | null) => (minor === null ? null : money(minor, row.currency));
  return {
    currency: row.currency,
    exponent: currencyExponent(row.currency) ?? 2,
    receiptAbove: m(row.receiptAboveMinor),
    descriptionMaxLength: row.descriptionMaxLength,
    workflowInstructions: row.workflowInstructions,
    limits: limits.map((l) => ({
      typeId: l.typeId,
      limit: m(l.limitMinor),
      receiptAbove: m(l.receiptAboveMinor),
    })),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toRate = (row: RateRow): MileageRate => ({
  id: row.id,
  name: row.name,
  unit: row.unit as MileageUnit,
  currency: row.currency,
  rate: decimalOfScaled(row.rateE4, EXPENSE_LIMITS.mileageRateDecimals),
  active: row.active,
});

const toTax = (row: TaxRow): TaxRate => ({
  id: row.id,
  name: row.name,
  rate: decimalOfScaled(row.rateE3, EXPENSE_LIMITS.taxRateDecimals),
  active: row.active,
});

function toProfile(
  row: ProfileRow,
  members: readonly { profileId: number; userId: string; firstName: string; lastName: string }[],
  thresholds: readonly ThresholdRow[],
): ApprovalProfile {
  return {
    id: row.id,
    name: row.name,
    limit: money(row.limitMinor, row.currency),
    approvalPercentage: row.approvalPercentage,
    approvers: members
      .filter((m) => m.profileId === row.id)
      .map((m) => ({ userId: m.userId, name: `${m.firstName} ${m.lastName}`.trim() })),
    active: row.active,
    inUse: thresholds.some((t) => t.profileId === row.id),
  };
}

const toThreshold = (row: ThresholdRow, profiles: readonly ProfileRow[]): ApprovalThreshold => ({
  id: row.id,
  amount: money(row.amountMinor, row.currency),
  profileId: row.profileId,
  profileName: profiles.find((p) => p.id === row.profileId)?.name ?? '',
});
