import { z } from 'zod';
import { keysetPageFields, keysetQueryFields } from './api/common.ts';
import { checkEmailPair, checkPersonName } from './identity.ts';
import { SUPPORTED_LOCALES } from './locales.ts';
import { checkRegistrationCode } from './self-registration.ts';

/**
 * New card account applications (issue 18 item 3, docs/self-registration.md "Card account
 * applications"): a prospective cardholder of a company applies at the portal (where the co-brand
 * offers prospective applications) with the company's self-registration code and their name; the
 * company's administrators review the applications and approve one with the card the bank issued —
 * the cardholder and the card account then exist — or decline it with a reason. The applicant is told
 * by mail either way, and registers with the card once it arrives (cardholder self-registration).
 */

export const CARD_APPLICATION_STATUSES = ['Pending', 'Approved', 'Declined'] as const;
export type CardApplicationStatus = (typeof CARD_APPLICATION_STATUSES)[number];

/** Why the applicant needs a card: optional, told to the reviewers. */
export const APPLICATION_REASON_MAX_LENGTH = 500;

/** `POST /sdportal/rest/registration/card-application`: the form, bounded; the rules judge it. */
export const cardApplicationBodySchema = z.strictObject({
  companyCode: z.string().max(20),
  firstName: z.string().max(200),
  lastName: z.string().max(200),
  email: z.string().max(200),
  emailConfirm: z.string().max(200),
  reason: z.string().max(2000),
  locale: z.string().max(10).optional(),
  cobrandName: z.string().max(64).optional(),
});
export type CardApplicationBody = z.infer<typeof cardApplicationBodySchema>;

export const CARD_APPLICATION_FIELDS = [
  'companyCode',
  'firstName',
  'lastName',
  'email',
  'emailConfirm',
  'reason',
] as const;
export type CardApplicationField = (typeof CARD_APPLICATION_FIELDS)[number];

export function cardApplicationProblems(
  body: Pick<CardApplicationBody, CardApplicationField>,
): Partial<Record<CardApplicationField, string>> {
  const problems: Partial<Record<CardApplicationField, string>> = {};
  const code = checkRegistrationCode(body.companyCode);
  if (code) problems.companyCode = code;
  for (const field of ['firstName', 'lastName'] as const) {
    const problem = checkPersonName(field, body[field]);
    if (problem) problems[field] = problem;
  }
  const emails = checkEmailPair(body.email.trim(), body.emailConfirm.trim());
  if (emails.email) problems.email = emails.email;
  if (emails.emailConfirm) problems.emailConfirm = emails.emailConfirm;
  const reason = body.reason.trim();
  if ([...reason].length > APPLICATION_REASON_MAX_LENGTH) problems.reason = 'applicationReason.tooLong';
  else if (/[<>\p{Cc}]/u.test(reason.replace(/\r?\n/g, ' ')))
    problems.reason = 'applicationReason.invalidCharacters';
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// The company's side: /app/api/org/companies/:number/card-applications

/** `POST …/:id/approve`: the card the bank issued for the applicant, and where the cardholder sits. */
export const cardApplicationApprovalBodySchema = z.strictObject({
  cardNumber: z.string().max(40),
  expiry: z.string().max(10),
  groupId: z.number().int().positive().nullish(),
  orgPoint: z.string().max(20).nullish(),
});
export type CardApplicationApprovalBody = z.infer<typeof cardApplicationApprovalBodySchema>;

export const cardApplicationSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(CARD_APPLICATION_STATUSES),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    locale: z.enum(SUPPORTED_LOCALES),
    reason: z.string(),
    appliedAt: z.string(),
    decision: z
      .object({
        by: z.string().nullable(),
        at: z.string(),
        reason: z.string().nullable(),
        /** The card issued (masked) and its cardholder, once approved. */
        account: z.object({ id: z.number().int(), maskedNumber: z.string() }).nullable(),
        cardholderId: z.number().int().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'CardApplication' });
export type CardApplication = z.infer<typeof cardApplicationSchema>;

export const cardApplicationListQuerySchema = z.object({
  status: z.enum(CARD_APPLICATION_STATUSES).optional(),
  ...keysetQueryFields,
});

export const cardApplicationListSchema = z
  .object({
    rows: z.array(cardApplicationSchema),
    ...keysetPageFields,
    canModify: z.boolean(),
  })
  .meta({ id: 'CardApplicationList' });
export type CardApplicationList = z.infer<typeof cardApplicationListSchema>;
