import type { RouteApproval, RouteApprover, RouteContext, RouteLevel } from '@cardportal/domain';
import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  approvalProfileMembers,
  approvalProfiles,
  approvalThresholds,
  cardholders,
  expenseReportActions,
  users,
} from '../../db/schema.ts';
import { orgPathOf } from '../access/index.ts';

/**
 * What a report's route depends on, read fresh in the transaction that acts on it (docs/expenses.md
 * "Routing"): the reporting structure above its cardholder with each level's active level managers, the
 * company's active approvers with their profile's limit in the report's currency, the highest threshold
 * the total is above, and this round's approvals. A change of the set-up applies from the next action.
 */
export interface RoutedReport {
  id: number;
  companyId: number;
  ownerPk: number;
  cardholderId: number;
  currency: string;
  totalMinor: bigint;
  round: number;
  reroutePk: number | null;
  rerouteStep: string | null;
}

export async function loadRouteContext(tx: Executor, report: RoutedReport): Promise<RouteContext> {
  // The org points from the cardholder's to the top, nearest first.
  const [holder] = await tx
    .select({ orgPointId: cardholders.orgPointId })
    .from(cardholders)
    .where(eq(cardholders.id, report.cardholderId));
  const points = await orgPathOf(tx, holder?.orgPointId);

  // Each approver's limit: the profile they belong to, when it is active and in the report's currency.
  const limitOf = sql<string | null>`(select p.limit_minor::text from ${approvalProfileMembers} m
    join ${approvalProfiles} p on p.id = m.profile_id
    where m.user_id = ${users.id} and p.active and p.currency = ${report.currency})`;

  const managers =
    points.length === 0
      ? []
      : await tx
          .select({ userPk: users.id, orgPointId: users.orgPointId, limit: limitOf })
          .from(users)
          .where(
            and(
              eq(users.companyId, report.companyId),
              eq(users.userType, 'O'),
              eq(users.status, 'Active'),
              sql`${users.orgPointId} in (${sql.join(
                points.map((p) => sql`${p}`),
                sql`, `,
              )})`,
            ),
          )
          .orderBy(asc(users.id));
  const levels: RouteLevel[] = points.map((orgPointId) => ({
    orgPointId,
    managers: managers
      .filter((m) => m.orgPointId === orgPointId)
      .map((m) => ({ userPk: m.userPk, limitMinor: m.limit === null ? null : BigInt(m.limit) })),
  }));

  const authorityRows = await tx
    .select({ userPk: users.id, limit: approvalProfiles.limitMinor })
    .from(approvalProfileMembers)
    .innerJoin(approvalProfiles, eq(approvalProfiles.id, approvalProfileMembers.profileId))
    .innerJoin(users, eq(users.id, approvalProfileMembers.userId))
    .where(
      and(
        eq(approvalProfiles.companyId, report.companyId),
        eq(approvalProfiles.active, true),
        eq(approvalProfiles.currency, report.currency),
        eq(users.status, 'Active'),
      ),
    )
    .orderBy(asc(users.id));
  const authorities: RouteApprover[] = authorityRows.map((r) => ({ userPk: r.userPk, limitMinor: r.limit }));

  // "Above an amount": the highest threshold strictly below the total.
  const [threshold] = await tx
    .select({ id: approvalThresholds.id, profileId: approvalThresholds.profileId })
    .from(approvalThresholds)
    .where(
      and(
        eq(approvalThresholds.companyId, report.companyId),
        eq(approvalThresholds.currency, report.currency),
        lt(approvalThresholds.amountMinor, report.totalMinor),
      ),
    )
    .orderBy(desc(approvalThresholds.amountMinor))
    .limit(1);
  let routedThreshold: RouteContext['threshold'] = null;
  if (threshold) {
    const [profile] = await tx
      .select({ percentage: approvalProfiles.approvalPercentage })
      .from(approvalProfiles)
      .where(eq(approvalProfiles.id, threshold.profileId));
    const members = await tx
      .select({ userPk: users.id })
      .from(approvalProfileMembers)
      .innerJoin(users, eq(users.id, approvalProfileMembers.userId))
      .where(and(eq(approvalProfileMembers.profileId, threshold.profileId), eq(users.status, 'Active')))
      .orderBy(asc(users.id));
    routedThreshold = {
      id: threshold.id,
      members: members.map((m) => m.userPk),
      percentage: profile?.percentage ?? 100,
    };
  }

  const approvals: RouteApproval[] = (
    await tx
      .select({ userPk: expenseReportActions.byPk, step: expenseReportActions.step })
      .from(expenseReportActions)
      .where(
        and(
          eq(expenseReportActions.reportId, report.id),
          eq(expenseReportActions.round, report.round),
          eq(expenseReportActions.action, 'approved'),
        ),
      )
      .orderBy(asc(expenseReportActions.id))
  ).flatMap((a) => (a.userPk === null ? [] : [{ userPk: a.userPk, step: a.step ?? '' }]));

  return {
    totalMinor: report.totalMinor,
    ownerPk: report.ownerPk,
    levels,
    authorities,
    threshold: routedThreshold,
    approvals,
    reroute:
      report.reroutePk !== null && report.rerouteStep !== null
        ? { userPk: report.reroutePk, step: report.rerouteStep }
        : null,
  };
}
