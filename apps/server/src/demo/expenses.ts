import { createHash } from 'node:crypto';
import { expenseNameKey, lineFlags, mileageAmount, reportTotal, routeReport } from '@cardportal/domain';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  accounts,
  approvalProfileMembers,
  approvalProfiles,
  approvalThresholds,
  companies,
  expenseLines,
  expensePolicies,
  expensePolicyLimits,
  expenseReportActions,
  expenseReportPending,
  expenseReports,
  expenseTypes,
  mileageRates,
  storedFiles,
  taxRates,
  transactions,
  users,
} from '../db/schema.ts';
import { loadRouteContext } from '../modules/expenses/index.ts';

/**
 * Acme's expense set-up (issue 17 item 1), in US dollars like its cards: the types its cardholders
 * report, a policy (receipts above $25, limits for meals and hotels), mileage and tax rates, and two
 * approval profiles — line managers up to $2,500, finance up to $25,000 with a threshold routing reports
 * above $10,000 to it. Borealis has none, so a company without a set-up is seen too.
 */
export async function loadDemoExpenseSettings(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const [acme] = await tx
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.number, '100001'));
    if (!acme) return;
    const companyId = acme.id;
    const type = (
      name: string,
      category: 'general' | 'mileage',
      properties: typeof expenseTypes.$inferInsert.properties = [],
    ) => ({
      companyId,
      name,
      nameKey: expenseNameKey(name),
      category,
      properties,
    });
    const types = await tx
      .insert(expenseTypes)
      .values([
        type('Airfare', 'general', [{ label: 'Route', kind: 'text', required: true }]),
        type('Hotel', 'general', [
          { label: 'Nights', kind: 'number', required: true },
          { label: 'Check-in', kind: 'date', required: false },
        ]),
        type('Meals', 'general', [{ label: 'Attendees', kind: 'text', required: true }]),
        type('Ground transport', 'general'),
        type('Office supplies', 'general'),
        type('Mileage', 'mileage', [{ label: 'Purpose', kind: 'text', required: true }]),
      ])
      .returning({ id: expenseTypes.id, name: expenseTypes.name });
    const idOf = (name: string) => types.find((t) => t.name === name)?.id ?? 0;
    await tx.insert(expensePolicies).values({
      companyId,
      currency: 'USD',
      receiptAboveMinor: 2_500n,
      descriptionMaxLength: 200,
      workflowInstructions:
        'Attach an itemised receipt for every line above $25.\nSubmit a report within 30 days of the trip.\nMileage: enter the odometer readings at the start and end of the journey.',
    });
    await tx.insert(expensePolicyLimits).values([
      { companyId, typeId: idOf('Meals'), limitMinor: 7_500n, receiptAboveMinor: 1_000n },
      { companyId, typeId: idOf('Hotel'), limitMinor: 30_000n, receiptAboveMinor: null },
    ]);
    await tx.insert(mileageRates).values([
      {
        companyId,
        name: 'Private car',
        nameKey: expenseNameKey('Private car'),
        unit: 'mi',
        currency: 'USD',
        rateE4: 7_000n,
      },
      {
        companyId,
        name: 'Private car (km)',
        nameKey: expenseNameKey('Private car (km)'),
        unit: 'km',
        currency: 'USD',
        rateE4: 4_350n,
      },
    ]);
    await tx.insert(taxRates).values([
      { companyId, name: 'New York sales tax', nameKey: expenseNameKey('New York sales tax'), rateE3: 8_875 },
      {
        companyId,
        name: 'Hotel occupancy tax',
        nameKey: expenseNameKey('Hotel occupancy tax'),
        rateE3: 5_875,
      },
    ]);
    const profiles = await tx
      .insert(approvalProfiles)
      .values([
        {
          companyId,
          name: 'Line managers',
          nameKey: expenseNameKey('Line managers'),
          currency: 'USD',
          limitMinor: 250_000n,
          approvalPercentage: 100,
        },
        {
          companyId,
          name: 'Finance',
          nameKey: expenseNameKey('Finance'),
          currency: 'USD',
          limitMinor: 2_500_000n,
          approvalPercentage: 50,
        },
      ])
      .returning({ id: approvalProfiles.id, name: approvalProfiles.name });
    const profileId = (name: string) => profiles.find((p) => p.name === name)?.id ?? 0;
    const people = await tx
      .select({ id: users.id, userId: users.userId })
      .from(users)
      .where(inArray(users.userId, ['lvlmgr01', 'agmgr01', 'admin01', 'cgadmin01']));
    const member = (userId: string, profile: string) => {
      const user = people.find((p) => p.userId === userId);
      return user ? [{ profileId: profileId(profile), userId: user.id }] : [];
    };
    const members = [
      ...member('lvlmgr01', 'Line managers'),
      ...member('agmgr01', 'Line managers'),
      ...member('admin01', 'Finance'),
      ...member('cgadmin01', 'Finance'),
    ];
    if (members.length > 0) await tx.insert(approvalProfileMembers).values(members);
    await tx
      .insert(approvalThresholds)
      .values({ companyId, currency: 'USD', amountMinor: 1_000_000n, profileId: profileId('Finance') });
  });
}

/** A 1×1 PNG: the demo's receipt (stored content-addressed like any upload). */
const DEMO_RECEIPT = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

type DemoLine = Omit<typeof expenseLines.$inferInsert, 'reportId'>;

/**
 * Demo expense reports, one in every state (issue 17): active01 (Acme, Plant North) has one saved with
 * two card transactions and a taxi, one submitted and waiting for the level manager lvlmgr01, one
 * approved by him with a receipt, one he sent back; Norte Logística has expense types but no policy yet,
 * so bncuser01's submitted report is held until it has one. Written as the service writes them: totals
 * and flags from the lines, the route's waiting approvers from the route itself.
 */
export async function loadDemoExpenseReports(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const people = await tx
      .select({
        id: users.id,
        userId: users.userId,
        cardholderId: users.cardholderId,
        companyId: users.companyId,
      })
      .from(users)
      .where(inArray(users.userId, ['active01', 'lvlmgr01', 'bncuser01']));
    const person = (userId: string) => people.find((p) => p.userId === userId);
    const holder = person('active01');
    const manager = person('lvlmgr01');
    if (!holder?.cardholderId || !holder.companyId || !manager) return;
    const typeRows = await tx
      .select({ id: expenseTypes.id, name: expenseTypes.name })
      .from(expenseTypes)
      .where(eq(expenseTypes.companyId, holder.companyId));
    const typeId = (name: string) => typeRows.find((t) => t.name === name)?.id ?? 0;
    const [rate] = await tx
      .select({ id: mileageRates.id, rateE4: mileageRates.rateE4 })
      .from(mileageRates)
      .where(and(eq(mileageRates.companyId, holder.companyId), eq(mileageRates.unit, 'mi')));
    const cards = await tx
      .select({ id: transactions.id, amount: transactions.amount, date: transactions.transactionDate })
      .from(transactions)
      .innerJoin(accounts, eq(accounts.id, transactions.accountId))
      .where(
        and(
          eq(accounts.cardholderId, holder.cardholderId),
          eq(transactions.currency, 'USD'),
          sql`${transactions.amount} > 0`,
        ),
      )
      .orderBy(desc(transactions.transactionDate), desc(transactions.id))
      .limit(2);
    const [policy] = await tx
      .select()
      .from(expensePolicies)
      .where(eq(expensePolicies.companyId, holder.companyId));
    const limits = await tx
      .select()
      .from(expensePolicyLimits)
      .where(eq(expensePolicyLimits.companyId, holder.companyId));
    const sha256 = createHash('sha256').update(DEMO_RECEIPT).digest('hex');
    await tx
      .insert(storedFiles)
      .values({ sha256, mediaType: 'image/png', size: DEMO_RECEIPT.byteLength, bytes: DEMO_RECEIPT })
      .onConflictDoNothing();

    const report = async (
      owner: { id: number; cardholderId: number | null; companyId: number | null },
      name: string,
      currency: string,
      status: 'Saved' | 'Held' | 'Submitted' | 'Approved' | 'SentBack',
      at: string,
      lines: DemoLine[],
      history: {
        action: 'submitted' | 'held' | 'approved' | 'sentBack';
        byPk: number;
        step?: string;
        note?: string;
      }[],
    ) => {
      const flagged = lines.filter((l) => {
        if (!policy || policy.currency !== currency) return false;
        const own = limits.find((x) => x.typeId === l.typeId);
        return (
          lineFlags({
            amountMinor: l.amountMinor,
            limitMinor: own?.limitMinor ?? null,
            receiptAboveMinor: own?.receiptAboveMinor ?? policy.receiptAboveMinor,
            hasReceipt: Boolean(l.receiptSha256),
          }).length > 0
        );
      }).length;
      const when = new Date(at);
      const round = history.length > 0 ? 1 : 0;
      const [row] = await tx
        .insert(expenseReports)
        .values({
          companyId: owner.companyId ?? 0,
          ownerPk: owner.id,
          cardholderId: owner.cardholderId ?? 0,
          name,
          currency,
          status,
          totalMinor: reportTotal(lines.map((l) => ({ amountMinor: l.amountMinor }))),
          lineCount: lines.length,
          flaggedCount: flagged,
          round,
          submittedAt: round > 0 ? when : null,
          createdAt: when,
          updatedAt: when,
        })
        .returning();
      if (!row) return;
      if (lines.length > 0)
        await tx.insert(expenseLines).values(lines.map((l) => ({ ...l, reportId: row.id })));
      for (const h of history) {
        // An approval takes the step its route asked for at that point.
        let step = h.step;
        if (h.action === 'approved') {
          const route = routeReport(await loadRouteContext(tx, row));
          step = route.state === 'pending' ? route.step.step : undefined;
        }
        await tx
          .insert(expenseReportActions)
          .values({ reportId: row.id, round, createdAt: when, ...h, step });
      }
      if (status === 'Submitted') {
        const route = routeReport(await loadRouteContext(tx, row));
        if (route.state === 'pending')
          await tx
            .insert(expenseReportPending)
            .values(route.step.approvers.map((userPk) => ({ userPk, reportId: row.id, since: when })));
      }
    };

    const card = (i: number, type: string, description: string, properties: Record<string, string> = {}) => {
      const tx0 = cards[i];
      return tx0
        ? [
            {
              kind: 'card',
              typeId: typeId(type),
              transactionId: tx0.id,
              expenseDate: tx0.date,
              description,
              amountMinor: tx0.amount,
              properties,
            } satisfies DemoLine,
          ]
        : [];
    };
    const cash = (
      date: string,
      type: string,
      description: string,
      amountMinor: bigint,
      more: Partial<DemoLine> = {},
    ) =>
      ({
        kind: 'cash',
        typeId: typeId(type),
        expenseDate: date,
        description,
        amountMinor,
        ...more,
      }) satisfies DemoLine;

    await report(
      holder,
      'October client visits',
      'USD',
      'Saved',
      '2026-11-20T09:00:00Z',
      [
        ...card(0, 'Meals', 'Lunch with a client', { Attendees: '2' }),
        ...card(1, 'Ground transport', 'Taxi to the client'),
        cash('2026-11-18', 'Ground transport', 'Airport shuttle', 1_850n),
      ],
      [],
    );
    await report(
      holder,
      'Plant North supplies',
      'USD',
      'Submitted',
      '2026-11-24T14:30:00Z',
      [
        cash('2026-11-21', 'Office supplies', 'Safety labels for line 3', 6_420n),
        {
          kind: 'mileage',
          typeId: typeId('Mileage'),
          expenseDate: '2026-11-22',
          description: 'Drive to the supplier',
          mileageRateId: rate?.id ?? null,
          odometerStart: 41_200,
          odometerEnd: 41_350,
          amountMinor: rate ? mileageAmount(150n, rate.rateE4, 2) : 0n,
          properties: { Purpose: 'Supplier audit' },
        },
      ],
      [{ action: 'submitted', byPk: holder.id }],
    );
    await report(
      holder,
      'Supplier visit, Detroit',
      'USD',
      'Approved',
      '2026-11-05T10:00:00Z',
      [
        cash('2026-11-03', 'Meals', 'Dinner with the supplier', 4_200n, {
          properties: { Attendees: '3' },
          receiptSha256: sha256,
          receiptName: 'dinner-receipt.png',
        }),
      ],
      [
        { action: 'submitted', byPk: holder.id },
        { action: 'approved', byPk: manager.id },
      ],
    );
    await report(
      holder,
      'Denver conference hotel',
      'USD',
      'SentBack',
      '2026-11-12T16:00:00Z',
      [
        cash('2026-11-10', 'Hotel', 'Three nights at the conference', 54_000n, {
          properties: { Nights: '3' },
        }),
      ],
      [
        { action: 'submitted', byPk: holder.id },
        { action: 'sentBack', byPk: manager.id, note: 'Please attach the hotel invoice.' },
      ],
    );

    // Norte Logística: expense types set up, no policy yet — a submitted report waits for one.
    const norte = person('bncuser01');
    if (norte?.companyId && norte.cardholderId) {
      const [meals] = await tx
        .insert(expenseTypes)
        .values([
          {
            companyId: norte.companyId,
            name: 'Comidas',
            nameKey: expenseNameKey('Comidas'),
            category: 'general',
          },
          { companyId: norte.companyId, name: 'Taxi', nameKey: expenseNameKey('Taxi'), category: 'general' },
        ])
        .returning({ id: expenseTypes.id });
      await report(
        norte,
        'Viaje a Valencia',
        'EUR',
        'Held',
        '2026-11-26T11:00:00Z',
        [
          {
            kind: 'cash',
            typeId: meals?.id ?? 0,
            expenseDate: '2026-11-25',
            description: 'Comida con el cliente',
            amountMinor: 3_500n,
          },
        ],
        [{ action: 'held', byPk: norte.id }],
      );
    }
  });
}
