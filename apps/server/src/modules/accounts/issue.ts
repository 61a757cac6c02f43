import {
  checkCardExpiry,
  checkCardNumber,
  maskCardParts,
  normaliseCardExpiry,
  parseCardBins,
} from '@cardportal/domain';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accounts, companies, issuers } from '../../db/schema.ts';
import type { CardVault } from '../../kernel/card-vault.ts';

/**
 * Issuing a card account (issue 15 item 1, DESIGN §7 "Card data"): the one home of the rule, for the
 * application's form and the CLI alike. The number must be 12–19 digits with a right check digit, start
 * with one of the card BINs of the company's issuer (when it lists any), and not be issued already — found
 * by its keyed hash, never by the number. It is sealed at rest (AES-256-GCM, kernel/card-vault.ts); only
 * the BIN, last four and length stay in the clear. Run inside the caller's database transaction.
 */

export type IssueOutcome =
  | { problem: string; field?: 'number' | 'expiry'; accountId?: never; masked?: never }
  | { problem?: never; accountId: number; masked: string };

/** The card BINs of a company's issuer (empty: any BIN). */
export async function cardBinsOfCompany(db: Executor, companyId: number): Promise<string[]> {
  const [row] = await db
    .select({ cardBins: issuers.cardBins })
    .from(companies)
    .innerJoin(issuers, eq(issuers.id, companies.issuerId))
    .where(eq(companies.id, companyId))
    .limit(1);
  const parsed = parseCardBins(row?.cardBins ?? '');
  return 'bins' in parsed ? parsed.bins : [];
}

export async function issueAccount(
  db: Executor,
  vault: CardVault,
  request: {
    companyId: number;
    cardholderId: number | null;
    groupId: number | null;
    number: string;
    /** The card's expiry as printed on it (`MM/YY`), when known. */
    expiry?: string | null;
  },
): Promise<IssueOutcome> {
  const problem = checkCardNumber(request.number, await cardBinsOfCompany(db, request.companyId));
  if (problem) return { problem };
  const hasExpiry = request.expiry != null && request.expiry.trim() !== '';
  const expiryProblem = hasExpiry ? checkCardExpiry(request.expiry as string) : undefined;
  if (expiryProblem) return { problem: expiryProblem, field: 'expiry' };
  const sealed = vault.seal(request.number);
  const inserted = await db
    .insert(accounts)
    .values({
      companyId: request.companyId,
      cardholderId: request.cardholderId,
      accountGroupId: request.groupId,
      numberCipher: sealed.cipher,
      numberHash: sealed.hash,
      bin: sealed.bin,
      numberLength: sealed.length,
      last4: sealed.last4,
      expiry: hasExpiry ? (normaliseCardExpiry(request.expiry as string) ?? null) : null,
    })
    // Issued before (anywhere): the keyed hash is unique, so two at once cannot both be issued.
    .onConflictDoNothing({ target: accounts.numberHash })
    .returning({ id: accounts.id });
  const [account] = inserted;
  if (!account) return { problem: 'account.number.duplicate' };
  return { accountId: account.id, masked: maskCardParts(sealed) };
}
