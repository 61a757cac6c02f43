import { z } from 'zod';
import { checkEmailPair } from './identity.ts';
import { LIMITS } from './limits.ts';
import { checkNewUserId, isLuhnValid } from './user-id.ts';

/**
 * Cardholder self-registration (issue 18 item 2, docs/self-registration.md): a cardholder proves a card
 * with its number, the company's self-registration corporate code and the card's expiry date (a detail
 * the bank holds and the card carries), and becomes a user in first-login state. Every rule here is the
 * one both the portal's form and the server apply.
 */

/** Seed 001 §5: "Self-registration corporate code 6-10 digits". */
export const REGISTRATION_CODE_PATTERN = /^\d{6,10}$/;

/** Seed 001 §4: accounts lock after too many self-registration attempts; this many failed proofs. */
export const SELF_REGISTRATION_MAX_ATTEMPTS = 5;

export type RegistrationCodeProblem = 'registrationCode.required' | 'registrationCode.format';

export function checkRegistrationCode(raw: string): RegistrationCodeProblem | undefined {
  if (raw.trim().length === 0) return 'registrationCode.required';
  return REGISTRATION_CODE_PATTERN.test(raw.trim()) ? undefined : 'registrationCode.format';
}

/**
 * A card's expiry as the card shows it, `MM/YY` (seed 001 §5 "expiry MM/YY"); `MMYY`, `MM-YY` and
 * `M/YY` are read the same. Answers the canonical `MM/YY`, or undefined when it is not a month.
 */
export function normaliseCardExpiry(raw: string): string | undefined {
  const match = /^\s*(\d{1,2})\s*[/-]?\s*(\d{2})\s*$/.exec(raw);
  if (!match) return undefined;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return undefined;
  return `${String(month).padStart(2, '0')}/${match[2]}`;
}

export type CardExpiryProblem = 'cardExpiry.required' | 'cardExpiry.format';

export function checkCardExpiry(raw: string): CardExpiryProblem | undefined {
  if (raw.trim().length === 0) return 'cardExpiry.required';
  return normaliseCardExpiry(raw) ? undefined : 'cardExpiry.format';
}

/** Whether a card expiring `MM/YY` is still valid on `today` (a card is valid to its month's end). */
export function isCardExpiryCurrent(expiry: string, today: Date): boolean {
  const canonical = normaliseCardExpiry(expiry);
  if (!canonical) return false;
  const [month, year] = canonical.split('/').map(Number) as [number, number];
  const lastValid = (2000 + year) * 12 + (month - 1);
  return today.getUTCFullYear() * 12 + today.getUTCMonth() <= lastValid;
}

export type CardNumberEntryProblem = 'registrationCard.required' | 'registrationCard.format';

/** The card number as a person types it: 12–19 digits once spaces and dashes are dropped, Luhn-valid. */
export function checkCardNumberEntry(raw: string): CardNumberEntryProblem | undefined {
  const digits = raw.replace(/[\s-]/g, '');
  if (digits.length === 0) return 'registrationCard.required';
  if (
    !/^\d+$/.test(digits) ||
    digits.length < LIMITS.cardNumberMinDigits ||
    digits.length > LIMITS.cardNumberMaxDigits ||
    !isLuhnValid(digits)
  )
    return 'registrationCard.format';
  return undefined;
}

/** `POST /sdportal/rest/registration/cardholder`: the form, bounded; the rules below judge it. */
export const cardholderRegistrationBodySchema = z.strictObject({
  cardNumber: z.string().max(40),
  companyCode: z.string().max(20),
  expiry: z.string().max(10),
  userId: z.string().max(LIMITS.userIdMaxLength),
  email: z.string().max(200),
  emailConfirm: z.string().max(200),
  locale: z.string().max(10).optional(),
  cobrandName: z.string().max(64).optional(),
});
export type CardholderRegistrationBody = z.infer<typeof cardholderRegistrationBodySchema>;

/** The form's fields in the order the screen shows them (and a refusal names the first). */
export const REGISTRATION_FIELDS = [
  'cardNumber',
  'companyCode',
  'expiry',
  'userId',
  'email',
  'emailConfirm',
] as const;
export type RegistrationField = (typeof REGISTRATION_FIELDS)[number];

/**
 * Every field's first problem (message keys `validation.{key}`), before anything is looked up: what a
 * person can correct alone. An empty answer means the form may be sent.
 */
export function cardholderRegistrationProblems(
  body: Pick<CardholderRegistrationBody, RegistrationField>,
): Partial<Record<RegistrationField, string>> {
  const problems: Partial<Record<RegistrationField, string>> = {};
  const card = checkCardNumberEntry(body.cardNumber);
  if (card) problems.cardNumber = card;
  const code = checkRegistrationCode(body.companyCode);
  if (code) problems.companyCode = code;
  const expiry = checkCardExpiry(body.expiry);
  if (expiry) problems.expiry = expiry;
  const userId = checkNewUserId(body.userId.trim())[0];
  if (userId) problems.userId = userId;
  const emails = checkEmailPair(body.email.trim(), body.emailConfirm.trim());
  if (emails.email) problems.email = emails.email;
  if (emails.emailConfirm) problems.emailConfirm = emails.emailConfirm;
  return problems;
}

/** `GET, PUT /app/api/org/companies/:number/self-registration`: the company's side. */
export const selfRegistrationSettingsSchema = z
  .object({
    /** The program option `selfRegistration` in effect for the company (issuer's and its own). */
    enabled: z.boolean(),
    /** The corporate code its cardholders register with; null: none set, nobody can register. */
    code: z.string().nullable(),
    /** Card accounts of the company whose self-registration is locked (unlocked one by one). */
    lockedCards: z.number().int(),
  })
  .meta({ id: 'SelfRegistrationSettings' });
export type SelfRegistrationSettings = z.infer<typeof selfRegistrationSettingsSchema>;

export const selfRegistrationBodySchema = z.strictObject({
  /** 6–10 digits, or null (or empty) to remove it. */
  code: z.string().max(20).nullable(),
});
export type SelfRegistrationBody = z.infer<typeof selfRegistrationBodySchema>;
