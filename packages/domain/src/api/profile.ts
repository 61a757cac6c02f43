import { z } from 'zod';

/**
 * Contracts of My Profile under /app/api/profile (docs/api.md): the signed-in user's own settings.
 * Every change that could take over an account (challenge question, two-factor, a new soft token) asks
 * for the current password again; a wrong one counts toward the lock like a wrong sign-in.
 */

export const profileSchema = z
  .object({
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    locale: z.string(),
    /** The languages the user may choose: its co-brand's. */
    locales: z.array(z.string()),
    loginType: z.enum(['pwd', 'otp-2fa', 'token']),
    twoFactor: z.boolean(),
    /** The chosen challenge question (`securityQuestion.{id}` in the Messages bundle), if any. */
    securityQuestionId: z.string().nullable(),
    securityQuestionIds: z.array(z.string()),
    token: z.object({ mode: z.string() }).nullable(),
    /** Where to change the password: the portal's screen, coming back here. */
    changePasswordUrl: z.string(),
  })
  .meta({ id: 'Profile', description: "The signed-in user's own settings" });
export type Profile = z.infer<typeof profileSchema>;

export const languageBodySchema = z.object({ locale: z.string({ error: 'locale.invalid' }) });

const currentPassword = z
  .string({ error: 'currentPassword.required' })
  .min(1, { error: 'currentPassword.required' });

export const challengeQuestionBodySchema = z.object({
  questionId: z.string({ error: 'securityQuestion.required' }),
  answer: z.string({ error: 'securityAnswer.required' }),
  currentPassword,
});

export const twoFactorBodySchema = z.object({
  enabled: z.boolean({ error: 'form.invalid' }),
  currentPassword,
});

export const softTokenBodySchema = z.object({ currentPassword });

/** A (re)issued soft token: shown once, never again. */
export const softTokenEnrolmentSchema = z
  .object({
    uri: z.string().describe('The otpauth URI'),
    /** The otpauth URI as an SVG QR code (for an authenticator app's camera). */
    qrSvg: z.string(),
    defaultPin: z.string(),
    /** Days the default PIN stays valid. */
    defaultPinDays: z.number().int(),
  })
  .meta({ id: 'SoftTokenEnrolment', description: 'The new soft token, shown once' });
export type SoftTokenEnrolment = z.infer<typeof softTokenEnrolmentSchema>;
