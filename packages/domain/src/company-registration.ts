import { z } from 'zod';
import { keysetPageFields, keysetQueryFields } from './api/common.ts';
import { checkEmailPair, checkPersonName } from './identity.ts';
import { LIMITS } from './limits.ts';
import { SUPPORTED_LOCALES } from './locales.ts';
import { checkRegistrationCode } from './self-registration.ts';
import { checkNewUserId } from './user-id.ts';

/**
 * Company self-registration (issue 18 item 1, docs/self-registration.md "Company self-registration"):
 * an issuer's administrator invites a company by name and gives it a corporate code (seed 001 §5: 6–10
 * digits); the company applies at the portal with the code, its name as the bank knows it, and its first
 * program administrator; the issuer's administrator approves (the company and that user exist, the
 * first password goes by mail) or declines (the applicant is told why). Wrong names for a code count
 * against it; the SELF_REGISTRATION_MAX_ATTEMPTS-th locks it until an administrator unlocks it.
 */

export const COMPANY_REGISTRATION_STATUSES = ['Invited', 'Applied', 'Approved', 'Declined'] as const;
export type CompanyRegistrationStatus = (typeof COMPANY_REGISTRATION_STATUSES)[number];

/** A decline's reason, told to the applicant. */
export const DECLINE_REASON_MAX_LENGTH = 500;

/**
 * A company name compared as people type it: Unicode-normalised (NFKC), case-folded, punctuation and
 * runs of spaces ignored — "ACME Industries, Inc." and "acme industries inc" are the same name.
 */
export function companyNameKey(raw: string): string {
  return raw
    .normalize('NFKC')
    .toLocaleLowerCase('en')
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export type CompanyNameProblem =
  | 'companyName.required'
  | 'companyName.tooLong'
  | 'companyName.invalidCharacters';

/** A company's name as an applicant or an inviting administrator types it (the company name1 rule). */
export function checkCompanyName(raw: string, required = true): CompanyNameProblem | undefined {
  const text = raw.trim();
  if (text.length === 0) return required ? 'companyName.required' : undefined;
  if ([...text].length > LIMITS.orgNameMaxLength) return 'companyName.tooLong';
  if (/[<>\p{Cc}]/u.test(text)) return 'companyName.invalidCharacters';
  return undefined;
}

/** `POST /sdportal/rest/registration/company`: the portal's form, bounded; the rules below judge it. */
export const companyApplicationBodySchema = z.strictObject({
  code: z.string().max(20),
  companyName: z.string().max(200),
  companyName2: z.string().max(200),
  firstName: z.string().max(200),
  lastName: z.string().max(200),
  userId: z.string().max(LIMITS.userIdMaxLength),
  email: z.string().max(200),
  emailConfirm: z.string().max(200),
  locale: z.string().max(10).optional(),
  cobrandName: z.string().max(64).optional(),
});
export type CompanyApplicationBody = z.infer<typeof companyApplicationBodySchema>;

export const COMPANY_APPLICATION_FIELDS = [
  'code',
  'companyName',
  'companyName2',
  'firstName',
  'lastName',
  'userId',
  'email',
  'emailConfirm',
] as const;
export type CompanyApplicationField = (typeof COMPANY_APPLICATION_FIELDS)[number];

/** Every field's first problem (message keys), before anything is looked up. */
export function companyApplicationProblems(
  body: Pick<CompanyApplicationBody, CompanyApplicationField>,
): Partial<Record<CompanyApplicationField, string>> {
  const problems: Partial<Record<CompanyApplicationField, string>> = {};
  const code = checkRegistrationCode(body.code);
  if (code) problems.code = code;
  const name = checkCompanyName(body.companyName);
  if (name) problems.companyName = name;
  const name2 = checkCompanyName(body.companyName2, false);
  if (name2) problems.companyName2 = name2;
  for (const field of ['firstName', 'lastName'] as const) {
    const problem = checkPersonName(field, body[field]);
    if (problem) problems[field] = problem;
  }
  const userId = checkNewUserId(body.userId.trim())[0];
  if (userId) problems.userId = userId;
  const emails = checkEmailPair(body.email.trim(), body.emailConfirm.trim());
  if (emails.email) problems.email = emails.email;
  if (emails.emailConfirm) problems.emailConfirm = emails.emailConfirm;
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// The issuer's side: /app/api/org/issuers/:number/company-registrations

/** `POST …/company-registrations`: invite a company; without a code the server draws 8 random digits. */
export const companyInvitationBodySchema = z.strictObject({
  companyName: z.string().max(200),
  code: z.string().max(20).nullish(),
});
export type CompanyInvitationBody = z.infer<typeof companyInvitationBodySchema>;

/** `POST …/:id/approve`: the new company's number and, optionally, its company group. */
export const companyApprovalBodySchema = z.strictObject({
  companyNumber: z.string().max(20),
  groupName: z.string().max(200).optional(),
});
export type CompanyApprovalBody = z.infer<typeof companyApprovalBodySchema>;

/** `POST …/:id/decline`: why (1–500 characters, told to the applicant). */
export const companyDeclineBodySchema = z.strictObject({ reason: z.string().max(2000) });
export type CompanyDeclineBody = z.infer<typeof companyDeclineBodySchema>;

export function checkDeclineReason(raw: string): 'reason.required' | 'reason.tooLong' | undefined {
  const text = raw.trim();
  if (text.length === 0) return 'reason.required';
  if ([...text].length > DECLINE_REASON_MAX_LENGTH) return 'reason.tooLong';
  return undefined;
}

export const companyRegistrationSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(COMPANY_REGISTRATION_STATUSES),
    code: z.string(),
    companyName: z.string(),
    invitedAt: z.string(),
    invitedBy: z.string().nullable(),
    /** Locked after failed attempts: the code proves nothing until unlocked. */
    locked: z.boolean(),
    /** What the company sent (null until it applied). */
    application: z
      .object({
        companyName2: z.string(),
        firstName: z.string(),
        lastName: z.string(),
        userId: z.string(),
        email: z.string(),
        locale: z.enum(SUPPORTED_LOCALES),
        appliedAt: z.string(),
      })
      .nullable(),
    decision: z
      .object({
        by: z.string().nullable(),
        at: z.string(),
        reason: z.string().nullable(),
        companyNumber: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'CompanyRegistration' });
export type CompanyRegistration = z.infer<typeof companyRegistrationSchema>;

export const companyRegistrationListQuerySchema = z.object({
  status: z.enum(COMPANY_REGISTRATION_STATUSES).optional(),
  ...keysetQueryFields,
});

export const companyRegistrationListSchema = z
  .object({
    rows: z.array(companyRegistrationSchema),
    ...keysetPageFields,
    canModify: z.boolean(),
    /** The issuer's program option selfRegistration: off, nobody can be invited. */
    enabled: z.boolean(),
  })
  .meta({ id: 'CompanyRegistrationList' });
export type CompanyRegistrationList = z.infer<typeof companyRegistrationListSchema>;
