import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { maskEmail } from '../../kernel/outbox.ts';

/** Backoff between delivery attempts of a mail the SMTP server refused: 5 s, 10 s, 20 s … capped at 15 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 15 * 60_000);
}

/** Pause of the whole worker while the SMTP server is unreachable: 1 s, 2 s, 4 s, then every 5 s. */
export function outagePauseMs(failures: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, failures - 1), 5_000);
}

/**
 * True when sending failed because the SMTP server is out of reach (no connection, no greeting, a
 * timeout, 421 "service not available") rather than because it refused this mail: the outage is not
 * the mail's fault, so it must not push the mail's next attempt minutes away.
 */
function smtpUnreachable(error: unknown): boolean {
  const { responseCode, command } = error as { responseCode?: number; command?: string };
  return responseCode === undefined || responseCode === 421 || command === 'CONN';
}

/**
 * Delivers the outbox over SMTP, one pass per `mail.deliver` job (docs/jobs.md): sent when a mail is
 * committed, when a refused mail's backoff or an outage's pause ends, and every minute as a backstop.
 * Rows are claimed with FOR UPDATE SKIP LOCKED, so several instances can run passes side by side; a row stays until the SMTP server accepted it, so a restart or an SMTP
 * outage loses nothing. Without SMTP_URL, mail stays in the outbox, where `npm run cli -- mail list`
 * and `mail show ID` read it; the log only says that a mail is waiting (never its text).
 */
export class MailWorker {
  private transporter: Transporter | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;
  private readonly announced = new Set<number>();
  /** SMTP outage: consecutive failed connections, and no pass before this time (ms epoch). */
  private outageFailures = 0;
  private pausedUntil = 0;

  constructor(
    private readonly db: Db,
    config: Config,
    private readonly log: FastifyBaseLogger,
    /** Queues a pass (the `mail.deliver` job); the worker keeps no timer of its own. */
    private readonly wake: () => void = () => {},
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

  /** Asks for a pass soon (after a new mail was committed): the `mail.deliver` job (index.ts). */
  kick(): void {
    if (!this.stopped) this.wake();
  }

  /**
   * When the next pass is due, if mail is waiting: the earliest mail's next attempt, or the end of an
   * SMTP outage's pause, whichever is later. Undefined with nothing waiting, or without SMTP.
   */
  async nextPassAt(): Promise<Date | undefined> {
    if (!this.transporter || this.stopped) return undefined;
    const [row] = await this.db
      .select({ due: sql<string | null>`min(${mailOutbox.nextAttemptAt})` })
      .from(mailOutbox)
      .where(isNull(mailOutbox.sentAt));
    if (!row?.due) return undefined;
    return new Date(Math.max(new Date(row.due).getTime(), this.pausedUntil, Date.now()));
  }

  async stop(): Promise<void> {
    this.stopped = true;
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
      await this.announcePending();
      return 0;
    }
    if (Date.now() < this.pausedUntil) return 0;
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
        const unreachable = smtpUnreachable(error);
        await this.db
          .update(mailOutbox)
          .set({
            attempts,
            lastError: String((error as Error).message).slice(0, 500),
            // SMTP down: the mail is due again as soon as SMTP answers (the worker pauses instead).
            nextAttemptAt: unreachable ? sql`now()` : new Date(Date.now() + backoffMs(attempts)),
          })
          .where(eq(mailOutbox.id, row.id));
        if (unreachable) {
          this.outageFailures++;
          this.pausedUntil = Date.now() + outagePauseMs(this.outageFailures);
          if (this.outageFailures === 1) {
            this.log.warn(
              { err: { message: (error as Error).message } },
              'SMTP server unreachable: mail stays in the outbox until it answers',
            );
          }
        } else {
          this.log.warn(
            { mailId: row.id, attempts, err: { message: (error as Error).message } },
            'mail delivery failed; will retry',
          );
        }
        return sent;
      }
      if (this.outageFailures > 0) {
        this.log.info(
          { failures: this.outageFailures },
          'SMTP server reachable again: delivering the outbox',
        );
        this.outageFailures = 0;
        this.pausedUntil = 0;
      }
      await this.db
        .update(mailOutbox)
        .set({ sentAt: sql`now()`, body: '[delivered]', attempts: row.attempts + 1, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      sent++;
    }
  }

  /**
   * Without SMTP: say once per mail (and process) that it is waiting, and how to read it. The line names
   * the mail's id, kind and masked recipient only: never its text or subject, which carry or could carry
   * a one-time code or a temporary password (issue 13, item 3). `mail show ID` prints the text to
   * whoever can open the database (DATA_DIR or DATABASE_URL): the demo's mailbox.
   */
  private async announcePending(): Promise<void> {
    const rows = await this.db
      .select({ id: mailOutbox.id, kind: mailOutbox.kind, recipient: mailOutbox.recipient })
      .from(mailOutbox)
      .where(isNull(mailOutbox.sentAt))
      .orderBy(asc(mailOutbox.id))
      .limit(50);
    for (const row of rows) {
      if (this.announced.has(row.id)) continue;
      this.announced.add(row.id);
      this.log.info(
        { mailId: row.id, kind: row.kind, to: maskEmail(row.recipient) },
        `mail ${row.id} kept in the outbox (no SMTP_URL): read it with npm run cli -- mail show ${row.id}`,
      );
    }
  }
}
