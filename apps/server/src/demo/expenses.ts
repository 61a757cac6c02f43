import { expenseNameKey } from '@cardportal/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  approvalProfileMembers,
  approvalProfiles,
  approvalThresholds,
  companies,
  expensePolicies,
  expensePolicyLimits,
  expenseTypes,
  mileageRates,
  taxRates,
  users,
} from '../db/schema.ts';

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
