import { DEFAULT_COBRAND, resolveLocale } from '@cardportal/domain';
import type { Executor } from '../../db/client.ts';
import type { OutgoingMail } from '../../kernel/outbox.ts';
import type { TextBundles } from '../../text/bundles.ts';
import type { CobrandService } from '../cobrand/index.ts';

export type MailKind =
  | 'otp'
  | 'temporary-password'
  | 'password-changed'
  | 'pin-changed'
  | 'first-password'
  | 'dispute-filed'
  | 'expense-submitted'
  | 'expense-approved'
  | 'expense-sent-back'
  | 'company-registration-received'
  | 'company-registration-declined'
  | 'card-application-received'
  | 'card-application-approved'
  | 'card-application-declined';

const KEYS: Record<MailKind, { subject: string; body: string }> = {
  otp: { subject: 'mail.otp.subject', body: 'mail.otp.body' },
  'temporary-password': { subject: 'mail.temporaryPassword.subject', body: 'mail.temporaryPassword.body' },
  // Notices of a changed credential (ASVS V2.2.3, V2.5.5): they never carry the credential itself.
  'password-changed': { subject: 'mail.passwordChanged.subject', body: 'mail.passwordChanged.body' },
  'pin-changed': { subject: 'mail.pinChanged.subject', body: 'mail.pinChanged.body' },
  // A new user's first password (args: user ID, password, sign-in URL).
  'first-password': { subject: 'mail.firstPassword.subject', body: 'mail.firstPassword.body' },
  // A dispute filed on a transaction, to the company's program administrators (args: reference, merchant,
  // transaction date, masked card, amount disputed, reason, filed by). The explanation stays in the portal.
  'dispute-filed': { subject: 'mail.disputeFiled.subject', body: 'mail.disputeFiled.body' },
  // Expense reports (issue 17 item 3; args: report name, cardholder, total, and for a sent-back report
  // who sent it back and why): to the approvers a step waits for, to the cardholder once approved or
  // sent back. The lines and receipts stay in the portal.
  'expense-submitted': { subject: 'mail.expenseSubmitted.subject', body: 'mail.expenseSubmitted.body' },
  'expense-approved': { subject: 'mail.expenseApproved.subject', body: 'mail.expenseApproved.body' },
  'expense-sent-back': { subject: 'mail.expenseSentBack.subject', body: 'mail.expenseSentBack.body' },
  // Company self-registration (issue 18 item 1; args: the company's name, and a decline's reason): to the
  // applicant when the application arrives and when it is declined. An approval sends first-password.
  'company-registration-received': {
    subject: 'mail.companyRegistrationReceived.subject',
    body: 'mail.companyRegistrationReceived.body',
  },
  'company-registration-declined': {
    subject: 'mail.companyRegistrationDeclined.subject',
    body: 'mail.companyRegistrationDeclined.body',
  },
  // New card account applications (issue 18 item 3; args: the company's name, then the masked card and
  // the self-registration page once approved, or the reason when declined): to the applicant.
  'card-application-received': {
    subject: 'mail.cardApplicationReceived.subject',
    body: 'mail.cardApplicationReceived.body',
  },
  'card-application-approved': {
    subject: 'mail.cardApplicationApproved.subject',
    body: 'mail.cardApplicationApproved.body',
  },
  'card-application-declined': {
    subject: 'mail.cardApplicationDeclined.subject',
    body: 'mail.cardApplicationDeclined.body',
  },
};

/**
 * A mail in the user's language, under the co-brand's name: greeting, the kind's text (with `args`),
 * and the co-brand's signature. Texts come from the Messages bundle. Called inside a transaction, pass
 * it as `db` (the co-brand is read through it: CobrandService.get).
 */
/** What composing a mail reads: co-brands and text bundles (the server's, or the CLI's own). */
export interface MailTexts {
  cobrands: Pick<CobrandService, 'get'>;
  texts: Pick<TextBundles, 'text'>;
}

/** What a mail needs of its recipient (a user row has it). */
export interface MailRecipient {
  email: string;
  firstName: string;
  lastName: string;
  displayUserId: string;
}

/** A composed mail: the outbox's rendered mail, of a known kind. */
export interface ComposedMail extends OutgoingMail {
  kind: MailKind;
}

export async function composeMail(
  app: MailTexts,
  kind: MailKind,
  user: MailRecipient,
  context: { cobrand: string; locale: string },
  args: string[],
  db?: Executor,
): Promise<ComposedMail> {
  const cobrand =
    (await app.cobrands.get(context.cobrand, db)) ?? (await app.cobrands.get(DEFAULT_COBRAND, db));
  const appName = cobrand?.cobrand.appName ?? 'Card Portal';
  const locale = resolveLocale(context.locale, cobrand?.cobrand.locales);
  const t = (key: string, ...a: string[]) => app.texts.text(locale, 'Messages', key, ...a);
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.displayUserId;
  const lines = [t('mail.greeting', name), '', t(KEYS[kind].body, ...args), '', t('mail.signature', appName)];
  if (cobrand?.cobrand.copyrightMessage) lines.push(cobrand.cobrand.copyrightMessage);
  return {
    kind,
    recipient: user.email,
    subject: t(KEYS[kind].subject, appName),
    body: lines.join('\n'),
  };
}
