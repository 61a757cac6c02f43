import { checkCardNumber, maskCardParts } from '@cardportal/domain';
import { eq } from 'drizzle-orm';
import { accounts, auditEvents, cardholders } from '../../db/schema.ts';
import { CliInputError, defineCommand } from '../../kernel/cli.ts';
import { findUserByUserId } from '../users/index.ts';

/** The card-account commands of the admin CLI (DESIGN §7 run contract). */
export const accountCommands = [
  defineCommand({
    name: 'account create',
    synopsis: '--user-id ID --number PAN',
    summary: `issue a card account to the cardholder user ID: the number is
checked (12-19 digits, Luhn, not issued yet), sealed at rest, and
printed masked (BIN and last four)`,
    options: { 'user-id': { type: 'string' }, number: { type: 'string' } },
    async run({ db, io, texts, secrets }, { values }) {
      const userId = values['user-id'];
      const raw = values.number;
      if (!userId || !raw) throw new CliInputError('account create needs --user-id and --number', true);
      const message = (key: string) => texts.text('en_US', 'Messages', `validation.${key}`) || key;
      const problem = checkCardNumber(raw);
      if (problem) throw new CliInputError(`--number: ${message(problem)}`);
      const user = await findUserByUserId(db, userId);
      if (!user?.cardholderId) throw new CliInputError(`no cardholder user: ${userId}`);
      const [holder] = await db.select().from(cardholders).where(eq(cardholders.id, user.cardholderId));
      if (!holder) throw new CliInputError(`no cardholder user: ${userId}`);
      const vault = (await secrets()).cards;
      const sealed = vault.seal(raw);
      const masked = maskCardParts(sealed);
      await db.transaction(async (tx) => {
        const [taken] = await tx
          .select({ id: accounts.id })
          .from(accounts)
          .where(eq(accounts.numberHash, sealed.hash));
        if (taken) throw new CliInputError(`--number: ${message('account.number.duplicate')}`);
        const [account] = await tx
          .insert(accounts)
          .values({
            companyId: holder.companyId,
            cardholderId: holder.id,
            numberCipher: sealed.cipher,
            numberHash: sealed.hash,
            bin: sealed.bin,
            numberLength: sealed.length,
            last4: sealed.last4,
          })
          .returning({ id: accounts.id });
        await tx.insert(auditEvents).values({
          event: 'account.issued',
          userPk: user.id,
          detail: { by: 'cli', accountId: account?.id, number: masked },
          entity: 'account',
          entityId: masked,
        });
      });
      io.out(`issued card account ${masked} to ${user.displayUserId}`);
    },
  }),
];
