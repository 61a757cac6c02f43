import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

/** Backoff between delivery attempts: 5 s, 10 s, 20 s … capped at 15 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000);
}

/**
 * Delivers the outbox over SMTP. Rows are claimed with FOR UPDATE SKIP LOCKED, so several instances
 * can run workers side by side; a row stays until the SMTP server accepted it, so a restart or an SMTP
 * outage loses nothing. Without SMTP_URL, mail stays in the outbox and (demo mode only) is logged.
 */
export class MailWorker {
  private transporter: Transporter | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;
  private readonly logged = new Set<number>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    if (config.smtpUrl) {
      this.transporter = nodemailer.createTransport(config.smtpUrl, {
        from: config.mailFrom,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
    }
  }

  start(intervalMs = 2_000): void {
    const tick = () => {
      if (this.stopped) return;
      this.runOnce()
        .catch((err: unknown) =>
          this.log.warn({ err: { message: (err as Error).message } }, 'mail worker pass failed'),
        )
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, intervalMs).unref();
        });
    };
    tick();
  }

  /** Asks for an immediate pass (after a new mail was committed). */
  kick(): void {
    if (!this.stopped) void this.runOnce().catch(() => {});
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => {});
    this.transporter?.close();
  }

  /** One delivery pass; returns the number of mails sent. Concurrent calls share one pass. */
  runOnce(): Promise<number> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<number> {
    if (!this.transporter) {
      if (this.config.demo) await this.logPending();
      return 0;
    }
    let sent = 0;
    for (;;) {
      // Claim one due mail with a 2-minute lease (no transaction is held while SMTP talks): a crash
      // mid-send lets the lease run out and another pass retries — delivery is at least once.
      const due = this.db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(isNull(mailOutbox.sentAt), lte(mailOutbox.nextAttemptAt, sql`now()`)))
        .orderBy(asc(mailOutbox.id))
        .limit(1)
        .for('update', { skipLocked: true });
      const [row] = await this.db
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now() + interval '2 minutes'` })
        .where(sql`${mailOutbox.id} = (${due})`)
        .returning();
      if (!row) return sent;
      try {
        await this.transporter.sendMail({ to: row.recipient, subject: row.subject, text: row.body });
      } catch (error) {
        const attempts = row.attempts + 1;
        await this.db
          .update(mailOutbox)
          .set({
            attempts,
            lastError: String((error as Error).message).slice(0, 500),
            nextAttemptAt: new Date(Date.now() + backoffMs(attempts)),
          })
          .where(eq(mailOutbox.id, row.id));
        this.log.warn(
          { mailId: row.id, attempts, err: { message: (error as Error).message } },
          'mail delivery failed; will retry',
        );
        return sent;
      }
      await this.db
        .update(mailOutbox)
        .set({ sentAt: sql`now()`, body: '[delivered]', attempts: row.attempts + 1, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      sent++;
    }
  }

  /** Demo mode without SMTP: show each pending mail once in the log so a demo user can read it. */
  private async logPending(): Promise<void> {
    const rows = await this.db
      .select()
      .from(mailOutbox)
      .where(isNull(mailOutbox.sentAt))
      .orderBy(asc(mailOutbox.id))
      .limit(50);
    for (const row of rows) {
      if (this.logged.has(row.id)) continue;
      this.logged.add(row.id);
      this.log.info(
        { mailId: row.id, to: row.recipient, subject: row.subject, text: row.body },
        'demo mode: mail kept in the outbox (no SMTP_URL)',
      );
    }
  }
}
