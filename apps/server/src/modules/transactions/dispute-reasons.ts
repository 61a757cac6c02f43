import {
  checkDisputeReason,
  DISPUTE_LIMITS,
  type DisputeReason,
  type DisputeReasonList,
  may,
  normaliseReasonCode,
} from '@cardportal/domain';
import { and, eq } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { issuers } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { Caller } from '../../http/caller.ts';
import { auditAdmin } from '../../kernel/audit.ts';
import { issuerScope } from '../access/index.ts';
import {
  countReasons,
  deleteReason,
  findReason,
  insertReason,
  reasonsOf,
  updateReason,
} from './changes-repository.ts';

/**
 * An issuer's dispute reasons (issue 15 item 6, seed 001 §5, §9): at most 99, a code of at most 2
 * characters without spaces (stored upper case), a description of at most 75, no duplicate code. A
 * dispute copies its reason when it is filed, so changing or deleting a reason never changes a dispute.
 * Issuer administrators keep their own issuer's, issuer group administrators their group's, the system
 * administrator any.
 */
export class DisputeReasonService {
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

  async list(caller: Caller, number: string): Promise<DisputeReasonList> {
    const issuer = await this.issuer(this.db, caller, number);
    return {
      rows: await reasonsOf(this.db, issuer.id),
      canMaintain: may(caller, 'maintainDisputeReasons'),
      max: DISPUTE_LIMITS.reasonsPerIssuer,
    };
  }

  private checked(fields: { code: string; description: string }): DisputeReason {
    const problems = checkDisputeReason(fields);
    const [first] = Object.values(problems);
    if (first) throw new AppError('invalid', first, { fieldErrors: problems });
    return { code: normaliseReasonCode(fields.code), description: fields.description.trim() };
  }

  async create(
    caller: Caller,
    number: string,
    fields: DisputeReason,
    ip: string,
  ): Promise<DisputeReasonList> {
    const reason = this.checked(fields);
    await this.db.transaction(async (tx) => {
      // The issuer's row locked: two additions at once cannot both pass the count.
      const issuer = await this.issuer(tx, caller, number);
      await tx.select({ id: issuers.id }).from(issuers).where(eq(issuers.id, issuer.id)).for('update');
      if ((await countReasons(tx, issuer.id)) >= DISPUTE_LIMITS.reasonsPerIssuer)
        throw new AppError('conflict', 'disputeReason.tooMany', {
          message: `An issuer has at most ${DISPUTE_LIMITS.reasonsPerIssuer} dispute reasons`,
        });
      if (!(await insertReason(tx, { issuerId: issuer.id, ...reason })))
        throw new AppError('conflict', 'disputeReason.duplicate', {
          message: 'This reason code exists already',
          fieldErrors: { code: 'disputeReason.duplicate' },
        });
      await auditAdmin(tx, 'disputeReason.created', {
        actor: caller,
        entity: 'issuer',
        entityId: issuer.number,
        ip,
        detail: { code: reason.code, description: reason.description },
      });
    });
    return this.list(caller, number);
  }

  async update(
    caller: Caller,
    number: string,
    code: string,
    description: string,
    ip: string,
  ): Promise<DisputeReasonList> {
    const reason = this.checked({ code, description });
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const found = await findReason(tx, issuer.id, reason.code);
      if (!found)
        throw new AppError('notFound', 'disputeReason.notFound', { message: 'No such dispute reason' });
      await updateReason(tx, found.id, reason.description);
      await auditAdmin(tx, 'disputeReason.updated', {
        actor: caller,
        entity: 'issuer',
        entityId: issuer.number,
        changes: { description: { before: found.description, after: reason.description } },
        ip,
        detail: { code: reason.code },
      });
    });
    return this.list(caller, number);
  }

  async remove(caller: Caller, number: string, code: string, ip: string): Promise<DisputeReasonList> {
    await this.db.transaction(async (tx) => {
      const issuer = await this.issuer(tx, caller, number);
      const found = await findReason(tx, issuer.id, normaliseReasonCode(code));
      if (!found)
        throw new AppError('notFound', 'disputeReason.notFound', { message: 'No such dispute reason' });
      await deleteReason(tx, found.id);
      await auditAdmin(tx, 'disputeReason.deleted', {
        actor: caller,
        entity: 'issuer',
        entityId: issuer.number,
        ip,
        detail: { code: found.code, description: found.description },
      });
    });
    return this.list(caller, number);
  }
}
