import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { errorText } from '../../kernel/error-text.ts';
import type { JobDefinition } from '../../kernel/jobs.ts';
import type { ServerModule } from '../../kernel/module.ts';
import type { TextBundles } from '../../text/bundles.ts';
import { CobrandService } from '../cobrand/index.ts';
import { mailCommands } from './commands.ts';
import type { MailTexts } from './mail-text.ts';
import { MailWorker } from './worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Delivers the outbox (kernel/outbox.ts) over SMTP; `kick()` after committing a mail. */
    mailWorker: MailWorker;
  }
}

export { enqueueFirstPassword } from './first-password.ts';
export {
  type ComposedMail,
  composeMail,
  type MailKind,
  type MailRecipient,
  type MailTexts,
} from './mail-text.ts';
export { MailWorker } from './worker.ts';

/** What composing a mail reads, outside a server (the CLI): the co-brands of `db` and the given texts. */
export function mailTexts(db: Db, texts: TextBundles): MailTexts {
  return { cobrands: new CobrandService(db), texts };
}

/** The job that runs one delivery pass of the outbox (docs/jobs.md). */
export const MAIL_DELIVER = 'mail.deliver';

/**
 * One pass over the outbox, then, while mail is still waiting (a refused mail's backoff, an SMTP
 * outage's pause), one more pass queued for when it is due: one job per due second (its key), so passes
 * that find the same due time queue it once.
 */
async function deliver(app: FastifyInstance): Promise<void> {
  await app.mailWorker.runOnce();
  const next = await app.mailWorker.nextPassAt();
  if (next) {
    const due = new Date(Math.ceil(next.getTime() / 1000) * 1000);
    await app.jobs.send(MAIL_DELIVER, { startAfter: due, singletonKey: `at-${due.getTime() / 1000}` });
  }
}

const mailJobs: JobDefinition[] = [
  // Sent when a mail is committed (kick) and at start (mail left from before), and every minute as a
  // backstop: a mail committed by another process (the CLI), or a pass cut short by a crash (its claim
  // lapses after two minutes).
  { name: MAIL_DELIVER, cron: '* * * * *', atStart: true, pollSeconds: 2, run: deliver },
];

/**
 * Mail: composing a user's mail in its language under its co-brand, and delivering the outbox. The
 * outbox itself (kernel/outbox.ts) stores rendered mails and knows nothing of composing.
 */
export const mailModule: ServerModule = {
  services: (app) => {
    app.decorate(
      'mailWorker',
      new MailWorker(app.db, app.config, app.log, () => {
        app.jobs.send(MAIL_DELIVER, { singletonKey: 'now' }).catch((err: unknown) =>
          // The driver's message (Drizzle's own would list the query's parameters: addresses, mail text).
          app.log.warn({ err: { message: errorText(err) } }, 'mail delivery could not be queued'),
        );
      }),
    );
    app.addHook('onClose', () => {
      void app.mailWorker.stop();
    });
  },
  commands: mailCommands,
  jobs: mailJobs,
};
