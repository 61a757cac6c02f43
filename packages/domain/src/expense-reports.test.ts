import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approvalIsAuthorised,
  lineDescriptionProblem,
  lineFlags,
  mayApprove,
  odometerProblem,
  type RouteContext,
  type RouteResult,
  reportTotal,
  requiredApprovals,
  routeReport,
  submitProblem,
} from './expense-reports.ts';

/**
 * The approval workflow's properties (issue 17 "Tests"): whatever a company's structure, profiles and
 * thresholds, and whatever anyone tries in whatever order — approving (allowed or not), rerouting,
 * sending back — no report ends approved without an authorised approver, nobody approves their own
 * report, and the route always ends.
 */

const USERS = 8;
const owner = 0;

/** A company: levels of managers above the cardholder, profile limits, an optional threshold. */
const company = fc.record({
  totalMinor: fc.bigInt({ min: 1n, max: 5_000_000n }),
  levels: fc.array(
    fc.record({
      orgPointId: fc.integer({ min: 1, max: 6 }),
      managers: fc.uniqueArray(fc.integer({ min: 0, max: USERS - 1 }), { maxLength: 3 }),
    }),
    { maxLength: 4 },
  ),
  limits: fc.array(fc.option(fc.bigInt({ min: 1n, max: 5_000_000n }), { nil: null }), {
    minLength: USERS,
    maxLength: USERS,
  }),
  threshold: fc.option(
    fc.record({
      id: fc.integer({ min: 1, max: 3 }),
      members: fc.uniqueArray(fc.integer({ min: 0, max: USERS - 1 }), { maxLength: 4 }),
      percentage: fc.integer({ min: 1, max: 100 }),
    }),
    { nil: null },
  ),
});

type Company = typeof company extends fc.Arbitrary<infer T> ? T : never;

/**
 * The test's own oracle of "authorised", written apart from the domain's (a shared helper would let one
 * mistake pass both): someone other than the cardholder whose limit covers the total approved, and a
 * threshold got its share of its profile's members.
 */
function authorised(c: Company, approvals: readonly { userPk: number }[]): boolean {
  const who = approvals.map((a) => a.userPk);
  if (who.includes(owner) || new Set(who).size !== who.length) return false;
  const covered = who.some((pk) => {
    const limit = c.limits[pk];
    return limit !== null && limit !== undefined && limit >= c.totalMinor;
  });
  if (!covered) return false;
  if (!c.threshold) return true;
  const members = c.threshold.members.filter((pk) => pk !== owner);
  if (members.length === 0) return false;
  const share = Math.max(1, Math.ceil((c.threshold.percentage * members.length) / 100));
  return who.filter((pk) => members.includes(pk)).length >= share;
}

function contextOf(c: Company): RouteContext {
  return {
    totalMinor: c.totalMinor,
    ownerPk: owner,
    levels: c.levels.map((l) => ({
      orgPointId: l.orgPointId,
      managers: l.managers.map((pk) => ({ userPk: pk, limitMinor: c.limits[pk] ?? null })),
    })),
    authorities: c.limits.flatMap((limit, pk) => (limit === null ? [] : [{ userPk: pk, limitMinor: limit }])),
    threshold: c.threshold,
    approvals: [],
    reroute: null,
  };
}

/** What somebody tries: user `who` approves, an administrator reroutes to `who`, or `who` sends it back. */
const action = fc.oneof(
  fc.record({ kind: fc.constant('approve' as const), who: fc.integer({ min: 0, max: USERS - 1 }) }),
  fc.record({ kind: fc.constant('reroute' as const), who: fc.integer({ min: 0, max: USERS - 1 }) }),
  fc.record({ kind: fc.constant('sendBack' as const), who: fc.integer({ min: 0, max: USERS - 1 }) }),
);

describe('the approval route (issue 17 item 3)', () => {
  it('approves no report without an authorised approver, whatever is tried in whatever order', () => {
    fc.assert(
      fc.property(company, fc.array(action, { maxLength: 40 }), (c, actions) => {
        let ctx = contextOf(c);
        let status: 'Submitted' | 'Approved' | 'SentBack' = 'Submitted';
        let reroutes = 0;
        for (const act of actions) {
          const result = routeReport(ctx);
          if (status === 'SentBack') break;
          if (act.kind === 'approve') {
            // The server's check: only someone on the pending step, never the cardholder.
            if (status !== 'Submitted' || !mayApprove(result, owner, act.who)) continue;
            if (result.state !== 'pending') continue;
            ctx = { ...ctx, approvals: [...ctx.approvals, { userPk: act.who, step: result.step.step }] };
            if (ctx.reroute?.userPk === act.who) ctx = { ...ctx, reroute: null };
            const next = routeReport(ctx);
            if (next.state === 'approved') {
              status = 'Approved';
              expect(authorised(c, ctx.approvals)).toBe(true);
              expect(approvalIsAuthorised(ctx)).toBe(true);
            }
          } else if (act.kind === 'reroute') {
            // Seed 001: only Submitted or Approved, to an individual — never the cardholder nor a past approver.
            if (act.who === owner || ctx.approvals.some((a) => a.userPk === act.who)) continue;
            const step =
              status === 'Approved'
                ? `review:${++reroutes}`
                : result.state === 'pending'
                  ? result.step.step
                  : result.state === 'unroutable'
                    ? result.step
                    : undefined;
            if (!step) continue;
            ctx = { ...ctx, reroute: { userPk: act.who, step } };
            status = 'Submitted';
          } else if (status === 'Submitted' && mayApprove(result, owner, act.who)) {
            status = 'SentBack';
          }
        }
        if (status === 'Approved') expect(authorised(c, ctx.approvals)).toBe(true);
        // Nobody ever approved their own report or approved twice in a round.
        const approvers = ctx.approvals.map((a) => a.userPk);
        expect(approvers).not.toContain(owner);
        expect(new Set(approvers).size).toBe(approvers.length);
      }),
      { numRuns: 500 },
    );
  });

  it('always ends: approving whoever is asked reaches approved or unroutable, and approved is authorised', () => {
    fc.assert(
      fc.property(company, fc.array(fc.nat(), { maxLength: 30 }), (c, picks) => {
        let ctx = contextOf(c);
        let result: RouteResult = routeReport(ctx);
        let steps = 0;
        while (result.state === 'pending') {
          const approvers = result.step.approvers;
          expect(approvers.length).toBeGreaterThan(0);
          expect(approvers).not.toContain(owner);
          const who = approvers[(picks[steps] ?? 0) % approvers.length] as number;
          ctx = { ...ctx, approvals: [...ctx.approvals, { userPk: who, step: result.step.step }] };
          result = routeReport(ctx);
          steps += 1;
          expect(steps).toBeLessThanOrEqual(USERS);
        }
        if (result.state === 'approved') expect(authorised(c, ctx.approvals)).toBe(true);
        // Unroutable only when no approver can satisfy what is left.
        if (result.state === 'unroutable' && result.step === 'authority') {
          const approved = new Set(ctx.approvals.map((a) => a.userPk));
          const able = c.limits.some(
            (limit, pk) => pk !== owner && !approved.has(pk) && limit !== null && limit >= c.totalMinor,
          );
          expect(able).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('climbs the reporting structure and escalates over an approver limit', () => {
    const ctx: RouteContext = {
      totalMinor: 300_000n,
      ownerPk: 1,
      levels: [
        { orgPointId: 11, managers: [] },
        { orgPointId: 10, managers: [{ userPk: 2, limitMinor: 250_000n }] },
        { orgPointId: 1, managers: [{ userPk: 1, limitMinor: 9_000_000n }] },
      ],
      authorities: [
        { userPk: 2, limitMinor: 250_000n },
        { userPk: 3, limitMinor: 2_500_000n },
        { userPk: 4, limitMinor: 2_500_000n },
        { userPk: 1, limitMinor: 9_000_000n },
      ],
      threshold: null,
      approvals: [],
      reroute: null,
    };
    expect(routeReport(ctx)).toEqual({
      state: 'pending',
      step: { step: 'level:10', approvers: [2], needed: 1 },
    });
    // The level manager's $2,500 does not cover $3,000: past the top (whose manager is the cardholder,
    // skipped), to the profile members whose limit does, never the cardholder.
    const escalated = { ...ctx, approvals: [{ userPk: 2, step: 'level:10' }] };
    expect(routeReport(escalated)).toEqual({
      state: 'pending',
      step: { step: 'authority', approvers: [3, 4], needed: 1 },
    });
    expect(
      routeReport({ ...escalated, approvals: [...escalated.approvals, { userPk: 3, step: 'authority' }] }),
    ).toEqual({
      state: 'approved',
    });
    // Within the manager's limit, one approval does.
    expect(routeReport({ ...escalated, totalMinor: 20_000n })).toEqual({ state: 'approved' });
  });

  it('asks a threshold profile for its share and lets a reroute take a step but not lower it', () => {
    const ctx: RouteContext = {
      totalMinor: 1_200_000n,
      ownerPk: 1,
      levels: [],
      authorities: [
        { userPk: 3, limitMinor: 2_500_000n },
        { userPk: 4, limitMinor: 2_500_000n },
        { userPk: 5, limitMinor: 2_500_000n },
        { userPk: 6, limitMinor: 100n },
      ],
      threshold: { id: 7, members: [3, 4, 5], percentage: 50 },
      approvals: [{ userPk: 3, step: 'authority' }],
      reroute: null,
    };
    expect(requiredApprovals(50, 3)).toBe(2);
    expect(routeReport(ctx)).toEqual({
      state: 'pending',
      step: { step: 'threshold:7', approvers: [4, 5], needed: 1 },
    });
    // Rerouted to someone outside the profile: they take the step, yet the threshold still asks for its share.
    const rerouted = { ...ctx, reroute: { userPk: 6, step: 'threshold:7' } };
    expect(routeReport(rerouted)).toEqual({
      state: 'pending',
      step: { step: 'threshold:7', approvers: [6], needed: 1 },
    });
    const after = { ...rerouted, approvals: [...rerouted.approvals, { userPk: 6, step: 'threshold:7' }] };
    expect(routeReport(after).state).toBe('pending');
    expect(
      routeReport({ ...after, approvals: [...after.approvals, { userPk: 5, step: 'threshold:7' }] }),
    ).toEqual({
      state: 'approved',
    });
    // Nobody covers the total: unroutable, never approved.
    expect(routeReport({ ...ctx, approvals: [], totalMinor: 9_000_000n })).toEqual({
      state: 'unroutable',
      step: 'authority',
    });
  });
});

describe('report and line rules (issue 17 item 2)', () => {
  it('submits an editable report with lines once', () => {
    expect(submitProblem('Saved', 0)).toBe('expenseReport.noLines');
    expect(submitProblem('Saved', 2)).toBeUndefined();
    expect(submitProblem('SentBack', 1)).toBeUndefined();
    for (const status of ['Held', 'Submitted', 'Approved'] as const)
      expect(submitProblem(status, 3)).toBe('expenseReport.alreadySubmitted');
  });

  it('checks odometers, descriptions and the policy flags', () => {
    expect(odometerProblem(1200, 1350)).toBeUndefined();
    expect(odometerProblem(1350, 1350)).toBe('expenseLine.odometer.order');
    expect(odometerProblem(1400, 1350)).toBe('expenseLine.odometer.order');
    expect(odometerProblem(-1, 10)).toBe('expenseLine.odometer.range');
    expect(odometerProblem(1.5, 10)).toBe('expenseLine.odometer.range');
    expect(lineDescriptionProblem('Taxi to the airport', 10)).toBe('expenseLine.description.tooLong');
    expect(lineDescriptionProblem('Taxi', 10)).toBeUndefined();
    expect(lineDescriptionProblem('  ', 10)).toBe('expenseLine.description.required');
    expect(lineDescriptionProblem('<b>x</b>', 100)).toBe('expenseLine.description.invalidCharacters');
    expect(
      lineFlags({ amountMinor: 8_000n, limitMinor: 7_500n, receiptAboveMinor: 2_500n, hasReceipt: false }),
    ).toEqual(['overLimit', 'receiptMissing']);
    expect(
      lineFlags({ amountMinor: 2_500n, limitMinor: null, receiptAboveMinor: 2_500n, hasReceipt: false }),
    ).toEqual([]);
  });

  it('totals the lines exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -1_000_000_000_000n, max: 1_000_000_000_000n })), (amounts) => {
        const lines = amounts.map((amountMinor) => ({ amountMinor }));
        expect(reportTotal(lines)).toBe(amounts.reduce((a, b) => a + b, 0n));
      }),
    );
  });
});
