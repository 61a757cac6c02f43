import { eq } from 'drizzle-orm';
import { auditEvents, cardholders } from '../../db/schema.ts';
import { CliInputError, defineCommand } from '../../kernel/cli.ts';
import { findUserByUserId } from '../users/index.ts';
import { issueAccount } from './issue.ts';

/** The card-account commands of the admin CLI (DESIGN §7 run contract). */
export const accountCommands = [
  defineCommand({
    name: 'account create',
    synopsis: '--user-id ID --number PAN [--expiry MM/YY]',
    summary: `issue a card account to the cardholder user ID: the number is
checked (12-19 digits, Luhn, the issuer's card BINs, not issued yet), sealed at rest, and
printed masked (BIN and last four); --expiry is the card's expiry as printed on it (its
holder proves the card with it at self-registration)`,
    options: { 'user-id': { type: 'string' }, number: { type: 'string' }, expiry: { type: 'string' } },
    async run({ db, io, texts, secrets }, { values }) {
      const userId = values['user-id'];
      const raw = values.number;
      if (!userId || !raw) throw new CliInputError('account create needs --user-id and --number', true);
      const message = (key: string) => texts.text('en_US', 'Messages', `validation.${key}`) || key;
      const user = await findUserByUserId(db, userId);
      if (!user?.cardholderId) throw new CliInputError(`no cardholder user: ${userId}`);
      const [holder] = await db.select().from(cardholders).where(eq(cardholders.id, user.cardholderId));
      if (!holder) throw new CliInputError(`no cardholder user: ${userId}`);
      const vault = (await secrets()).cards;
      const masked = await db.transaction(async (tx) => {
        const issued = await issueAccount(tx, vault, {
          companyId: holder.companyId,
          cardholderId: holder.id,
          groupId: null,
          number: raw,
          expiry: values.expiry ?? null,
        });
        if (issued.problem !== undefined)
          throw new CliInputError(`--${issued.field ?? 'number'}: ${message(issued.problem)}`);
        await tx.insert(auditEvents).values({
          event: 'account.issued',
          userPk: user.id,
          detail: { by: 'cli', accountId: issued.accountId, number: issued.masked },
          entity: 'account',
          entityId: issued.masked,
        });
        return issued.masked;
      });
      io.out(`issued card account ${masked} to ${user.displayUserId}`);
    },
  }),
];
