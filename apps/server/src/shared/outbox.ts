import type { Executor } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import type { MailKind } from './mail-text.ts';

export interface OutgoingMail {
  kind: MailKind;
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
