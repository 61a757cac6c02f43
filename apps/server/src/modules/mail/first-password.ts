import { portalUrl } from '@cardportal/domain';
import type { Executor } from '../../db/client.ts';
import { enqueueMail } from '../../kernel/outbox.ts';
import { composeMail, type MailRecipient, type MailTexts } from './mail-text.ts';

/**
 * A user's first password by mail (`first-password`: user ID, password, the co-brand's sign-in page),
 * written to the outbox in the caller's transaction, so the mail leaves if and only if the user (or the
 * change that voided their password) committed. The password is in the mail only: never answered or
 * logged. One home for every way a user gets one: an administrator's new user, a self-registered
 * cardholder, an approved company's administrator, an SSO user made a password user again.
 */
export async function enqueueFirstPassword(
  texts: MailTexts,
  publicUrl: string,
  user: MailRecipient & { cobrand: string; locale: string },
  password: string,
  tx: Executor,
): Promise<void> {
  const signin = new URL(portalUrl('signin', { cobrandHost: user.cobrand }), publicUrl).toString();
  await enqueueMail(
    tx,
    await composeMail(
      texts,
      'first-password',
      user,
      { cobrand: user.cobrand, locale: user.locale },
      [user.displayUserId, password, signin],
      tx,
    ),
  );
}
