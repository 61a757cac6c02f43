import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  accountGroups,
  accounts,
  cardApplications,
  cardholders,
  companies,
  companyRegistrations,
  issuers,
  orgPoints,
  programOptions,
} from '../db/schema.ts';
import type { Secrets } from '../kernel/secrets.ts';
import { issueAccount } from '../modules/accounts/index.ts';
import { demoAccountNumber } from './organisations.ts';
import { insertDemoTransactions } from './transactions.ts';

/**
 * The demo's cardholder self-registration (issue 18 item 2, docs/self-registration.md): Norte Logística
 * hands its cardholders the corporate code below, and Mateo Ruiz holds a card but no user yet — he can
 * register at the portal's "Cardholder self-registration" with these facts (README "Demo data").
 */
export const DEMO_SELF_REGISTRATION = {
  company: '200001',
  code: '20260001',
  orgPoint: 'N110',
  accountGroup: 'General',
  cardholder: { name1: 'Mateo', name2: 'Ruiz' },
  cardNumber: demoAccountNumber(800_001),
  /** Every demo card's expiry as printed on it. */
  expiry: '09/30',
  /** Banco Norte's invitation of a company to register itself (issue 18 item 1). */
  invitation: { issuer: '2001', code: '46820135', companyName: 'Sur Logística S.L.' },
  /** A prospective cardholder's pending application for a card at Norte Logística (issue 18 item 3). */
  application: {
    firstName: 'Pablo',
    lastName: 'Ortega',
    email: 'pablo.ortega@example.com',
    locale: 'es',
    reason: 'Viajes comerciales a Lisboa y Oporto cada mes.',
  },
} as const;

export async function loadDemoSelfRegistration(db: Db, secrets: Secrets): Promise<void> {
  const demo = DEMO_SELF_REGISTRATION;
  await db.transaction(async (tx) => {
    // Seed 001 §6: single sign-on and self-registration do not combine. The demo bank keeps single
    // sign-on (Borealis), Banco Norte offers self-registration (a database from before gets this too).
    const flip = async (issuerNumber: string, key: string, enabled: boolean) => {
      const [issuer] = await tx
        .select({ id: issuers.id })
        .from(issuers)
        .where(eq(issuers.number, issuerNumber));
      if (!issuer) return;
      await tx
        .insert(programOptions)
        .values({ key, level: 'issuer', issuerId: issuer.id, enabled })
        .onConflictDoUpdate({
          target: [programOptions.issuerId, programOptions.key],
          set: { enabled, updatedAt: sql`now()` },
        });
    };
    await flip('1001', 'selfRegistration', false);
    await flip('2001', 'singleSignOn', false);
    await tx.update(accounts).set({ expiry: demo.expiry }).where(isNull(accounts.expiry));
    const [norte] = await tx
      .select({ id: issuers.id })
      .from(issuers)
      .where(eq(issuers.number, demo.invitation.issuer));
    if (norte)
      await tx
        .insert(companyRegistrations)
        .values({ issuerId: norte.id, code: demo.invitation.code, companyName: demo.invitation.companyName })
        .onConflictDoNothing();
    const [company] = await tx
      .update(companies)
      .set({ registrationCode: demo.code })
      .where(eq(companies.number, demo.company))
      .returning({ id: companies.id });
    if (!company) return;
    await tx.insert(cardApplications).values({ companyId: company.id, ...demo.application });
    const [point] = await tx
      .select({ id: orgPoints.id })
      .from(orgPoints)
      .where(and(eq(orgPoints.companyId, company.id), eq(orgPoints.number, demo.orgPoint)));
    const [group] = await tx
      .select({ id: accountGroups.id })
      .from(accountGroups)
      .where(and(eq(accountGroups.companyId, company.id), eq(accountGroups.name, demo.accountGroup)));
    const [holder] = await tx
      .insert(cardholders)
      .values({ companyId: company.id, orgPointId: point?.id ?? null, ...demo.cardholder })
      .returning({ id: cardholders.id });
    if (!holder) return;
    const issued = await issueAccount(tx, secrets.cards, {
      companyId: company.id,
      cardholderId: holder.id,
      groupId: group?.id ?? null,
      number: demo.cardNumber,
      expiry: demo.expiry,
    });
    // Months of spending, like every demo card (README "Demo organisations").
    if (issued.accountId !== undefined) await insertDemoTransactions(tx, new Date(), [issued.accountId]);
  });
}
