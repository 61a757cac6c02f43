import {
  checkIssuerCode,
  ISSUER_CODE_LIMITS,
  ISSUER_CODE_LISTS,
  type IssuerCode,
  type IssuerCodeBody,
  type IssuerCodeKind,
  type IssuerCodeList,
  type IssuerCodeListName,
  type IssuerCodePatch,
  isSystemStatus,
  may,
  normaliseIssuerCode,
  type SystemStatus,
} from '@cardportal/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { issuerCodes, issuers } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { issuerScope } from '../access/index.ts';

/**
 * An issuer's code lists (issue 15 items 1 and 6; packages/domain issuer-codes.ts): dispute reasons,
 * account status codes (each with the system status it sets) and maintenance reason codes — at most 99
 * each, a code of at most 2 characters without spaces (stored upper case, unique in its list), a
 * description of at most 75. Kept by Z, H and I for the issuers in their scope. A dispute copies its
 * reason when filed and an account keeps its status code's code, so changing or deleting a code never
 * rewrites what was recorded with it.
 */

const columns = {
  code: issuerCodes.code,
  description: issuerCodes.description,
  systemStatus: issuerCodes.systemStatus,
};

const toCode = (row: { code: string; description: string; systemStatus: string | null }): IssuerCode => ({
  code: row.code,
  description: row.description,
  systemStatus: isSystemStatus(row.systemStatus) ? row.systemStatus : null,
});

/** The codes of one list of an issuer, by code. */
export async function issuerCodesOf(
  db: Executor,
  issuerId: number,
  kind: IssuerCodeKind,
): Promise<IssuerCode[]> {
  const rows = await db
    .select(columns)
    .from(issuerCodes)
    .where(and(eq(issuerCodes.issuerId, issuerId), eq(issuerCodes.kind, kind)))
    .orderBy(asc(issuerCodes.code));
  return rows.map(toCode);
}

/** One code of a list of an issuer (case-insensitive), or undefined. */
export async function findIssuerCode(
  db: Executor,
  issuerId: number,
  kind: IssuerCodeKind,
  code: string,
): Promise<(IssuerCode & { id: number }) | undefined> {
  const [row] = await db
    .select({ id: issuerCodes.id, ...columns })
    .from(issuerCodes)
    .where(
      and(
        eq(issuerCodes.issuerId, issuerId),
        eq(issuerCodes.kind, kind),
        eq(issuerCodes.code, normaliseIssuerCode(code)),
      ),
    )
    .limit(1);
  return row ? { id: row.id, ...toCode(row) } : undefined;
}

/** The codes of a list that exist, of those asked (case-insensitive). */
export async function existingIssuerCodes(
  db: Executor,
  issuerId: number,
  kind: IssuerCodeKind,
  codes: readonly string[],
): Promise<IssuerCode[]> {
  if (codes.length === 0) return [];
  const rows = await db
    .select(columns)
    .from(issuerCodes)
    .where(
      and(
        eq(issuerCodes.issuerId, issuerId),
        eq(issuerCodes.kind, kind),
        inArray(issuerCodes.code, codes.map(normaliseIssuerCode)),
      ),
    )
    .orderBy(asc(issuerCodes.code));
  return rows.map(toCode);
}

const EVENTS = {
  created: 'issuerCode.created',
  updated: 'issuerCode.updated',
  deleted: 'issuerCode.deleted',
} as const;

export class IssuerCodeService {
  constructor(private readonly db: Db) {}

  private async issuer(db: Executor, caller: Caller, number: string) {
    const [row] = await db
      .select({ id: issuers.id, number: issuers.number })
      .from(issuers)
      .where(and(eq(issuers.number, number), issuerScope(caller)))
      .limit(1);
    if (!row) throw new AppError('notFound', 'issuer.notFound', { message: 'No such issuer' });
    return row;
  }

  async list(caller: Caller, number: string, list: IssuerCodeListName): Promise<IssuerCodeList> {
    const issuer = await this.issuer(this.db, caller, number);
    return {
      list,
      rows: await issuerCodesOf(this.db, issuer.id, ISSUER_CODE_LISTS[list].kind),
      canMaintain: may(caller, 'maintainIssuerCodes'),
      max: ISSUER_CODE_LIMITS.perList,
    };
  }

  private checked(
    fields: { code: string; description: string; systemStatus?: string | null | undefined },
    list: IssuerCodeListName,
  ): { code: string; description: string; systemStatus: SystemStatus | null } {
    const problems = checkIssuerCode(fields, list);
    const [first] = Object.values(problems);
    if (first) throw new AppError('invalid', first, { fieldErrors: { ...problems } });
    return {
      code: normaliseIssuerCode(fields.code),
      description: fields.description.trim(),
      systemStatus:
        ISSUER_CODE_LISTS[list].kind === 'accountStatus' && isSystemStatus(fields.systemStatus)
          ? fields.systemStatus
          : null,
    };
  }

  private record(
    tx: Executor,
    caller: Caller,
    event: keyof typeof EVENTS,
    issuer: string,
    ip: string,
    detail: object,
  ) {
    return auditAdmin(tx, EVENTS[event], {
      actor: caller,
      entity: 'issuer',
      entityId: issuer,
      ip,
      detail: { ...detail },
    });
  }

  async create(
    caller: Caller,
    number: string,
    list: IssuerCodeListName,
    body: IssuerCodeBody,
    ip: string,
  ): Promise<IssuerCodeList> {
    const value = this.checked(body, list);
    const kind = ISSUER_CODE_LISTS[list].kind;
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      // The issuer's row locked: two additions at once cannot both pass the count.
      await tx.select({ id: issuers.id }).from(issuers).where(eq(issuers.id, issuer.id)).for('update');
      const [counted] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(issuerCodes)
        .where(and(eq(issuerCodes.issuerId, issuer.id), eq(issuerCodes.kind, kind)));
      if (Number(counted?.n ?? 0) >= ISSUER_CODE_LIMITS.perList)
        throw new AppError('conflict', 'issuerCode.tooMany', {
          message: `A list holds at most ${ISSUER_CODE_LIMITS.perList} codes`,
        });
      const inserted = await tx
        .insert(issuerCodes)
        .values({ issuerId: issuer.id, kind, ...value })
        .onConflictDoNothing({ target: [issuerCodes.issuerId, issuerCodes.kind, issuerCodes.code] })
        .returning({ id: issuerCodes.id });
      if (inserted.length === 0)
        throw new AppError('conflict', 'issuerCode.duplicate', {
          message: 'This code exists already',
          fieldErrors: { code: 'issuerCode.duplicate' },
        });
      await this.record(tx, caller, 'created', issuer.number, ip, { list, ...value });
    });
    return this.list(caller, number, list);
  }

  async update(
    caller: Caller,
    number: string,
    list: IssuerCodeListName,
    code: string,
    body: IssuerCodePatch,
    ip: string,
  ): Promise<IssuerCodeList> {
    const value = this.checked({ code, ...body }, list);
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const found = await findIssuerCode(tx, issuer.id, ISSUER_CODE_LISTS[list].kind, value.code);
      if (!found) throw new AppError('notFound', 'issuerCode.notFound', { message: 'No such code' });
      await tx
        .update(issuerCodes)
        .set({ description: value.description, systemStatus: value.systemStatus, updatedAt: sql`now()` })
        .where(eq(issuerCodes.id, found.id));
      await auditAdmin(tx, EVENTS.updated, {
        actor: caller,
        entity: 'issuer',
        entityId: issuer.number,
        changes: {
          description: { before: found.description, after: value.description },
          ...(found.systemStatus !== value.systemStatus
            ? { systemStatus: { before: found.systemStatus, after: value.systemStatus } }
            : {}),
        },
        ip,
        detail: { list, code: value.code },
      });
    });
    return this.list(caller, number, list);
  }

  async remove(
    caller: Caller,
    number: string,
    list: IssuerCodeListName,
    code: string,
    ip: string,
  ): Promise<IssuerCodeList> {
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const found = await findIssuerCode(tx, issuer.id, ISSUER_CODE_LISTS[list].kind, code);
      if (!found) throw new AppError('notFound', 'issuerCode.notFound', { message: 'No such code' });
      await tx.delete(issuerCodes).where(eq(issuerCodes.id, found.id));
      await this.record(tx, caller, 'deleted', issuer.number, ip, {
        list,
        code: found.code,
        description: found.description,
      });
    });
    return this.list(caller, number, list);
  }
}
