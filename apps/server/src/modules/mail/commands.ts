import { CliInputError, defineCommand } from '../../kernel/cli.ts';
import { findMail, listPendingMail } from '../../kernel/outbox.ts';

/** The outbox commands of the admin CLI: without SMTP_URL, mail stays in the outbox, read here. */
export const mailCommands = [
  defineCommand({
    name: 'mail list',
    summary:
      'list the mails not delivered yet (without SMTP_URL they stay\nin the outbox): id, time, kind, recipient, subject',
    async run({ db, io }) {
      for (const m of await listPendingMail(db)) {
        io.out([m.id, m.createdAt.toISOString(), m.kind, m.recipient, m.subject].join('\t'));
      }
    },
  }),
  defineCommand({
    name: 'mail show',
    synopsis: 'ID',
    summary: 'print one mail with its text (one-time codes, temporary passwords)',
    positionals: ['ID'],
    async run({ db, io }, { positionals: [id = ''] }) {
      if (!/^[1-9]\d{0,15}$/.test(id)) throw new CliInputError('mail show needs a mail ID (mail list)', true);
      const mail = await findMail(db, Number(id));
      if (!mail) throw new CliInputError(`no such mail: ${id}`);
      io.out(`To: ${mail.recipient}`);
      io.out(`Subject: ${mail.subject}`);
      io.out(`Date: ${mail.createdAt.toISOString()}`);
      io.out(mail.sentAt ? `Delivered: ${mail.sentAt.toISOString()}` : 'Not delivered');
      io.out('');
      io.out(mail.body);
    },
  }),
];
