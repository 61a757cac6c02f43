import { asc, eq, isNull } from 'drizzle-orm';
import type { Db, Executor } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';

/**
 * A mail as the outbox stores it: already rendered (the mail module composes it, modules/mail); the
 * outbox knows nothing of composing. `kind` is the composer's label, kept for the CLI's `mail list`.
 */
export interface OutgoingMail {
  kind: string;
  recipient: string;
  subject: string;
  body: string;
}

/**
 * Writes a mail to the outbox. Call it with the transaction that makes the change the mail reports,
 * so that both commit or neither does; the mail worker delivers it.
 */
export async function enqueueMail(tx: Executor, mail: OutgoingMail): Promise<void> {
  await tx.insert(mailOutbox).values(mail);
}

/** `jane.doe@example.com` → `j*******@example.com`: enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  return `${local[0]}***${email.slice(at)}`;
}

/** The mails not delivered yet, oldest first (the CLI's `mail list`: without SMTP_URL, the demo's mailbox). */
export function listPendingMail(db: Db, limit = 200) {
  return db
    .select({
      id: mailOutbox.id,
      createdAt: mailOutbox.createdAt,
      kind: mailOutbox.kind,
      recipient: mailOutbox.recipient,
      subject: mailOutbox.subject,
    })
    .from(mailOutbox)
    .where(isNull(mailOutbox.sentAt))
    .orderBy(asc(mailOutbox.id))
    .limit(limit);
}

/** One outbox mail with its text (the CLI's `mail show ID`); a delivered mail's text is blanked. */
export async function findMail(db: Db, id: number) {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}
