import type { ServerModule } from '../../kernel/module.ts';
import { MailWorker } from './worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Delivers the outbox (kernel/outbox.ts) over SMTP; `kick()` after committing a mail. */
    mailWorker: MailWorker;
  }
}

export {
  type ComposedMail,
  composeMail,
  type MailKind,
  type MailRecipient,
  type MailTexts,
} from './mail-text.ts';
export { MailWorker } from './worker.ts';

/**
 * Mail: composing a user's mail in its language under its co-brand, and delivering the outbox. The
 * outbox itself (kernel/outbox.ts) stores rendered mails and knows nothing of composing.
 */
export const mailModule: ServerModule = {
  services: (app) => {
    app.decorate('mailWorker', new MailWorker(app.db, app.config, app.log));
    app.addHook('onClose', () => {
      void app.mailWorker.stop();
    });
  },
};
