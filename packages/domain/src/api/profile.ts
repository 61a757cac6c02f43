import { z } from 'zod';

/**
 * Contracts of My Profile under /app/api/profile (docs/api.md): the signed-in user's own settings.
 * Every change that could take over an account (challenge question, two-factor, a new soft token) asks
 * for the current password again; a wrong one counts toward the lock like a wrong sign-in.
 */

export interface Profile {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  locale: string;
  /** The languages the user may choose: its co-brand's. */
  locales: string[];
  loginType: 'pwd' | 'otp-2fa' | 'token';
  twoFactor: boolean;
  /** The chosen challenge question (`securityQuestion.{id}` in the Messages bundle), if any. */
  securityQuestionId: string | null;
  securityQuestionIds: string[];
  token: { mode: string } | null;
  /** Where to change the password: the portal's screen, coming back here. */
  changePasswordUrl: string;
}

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
export interface SoftTokenEnrolment {
  uri: string;
  /** The otpauth URI as an SVG QR code (for an authenticator app's camera). */
  qrSvg: string;
  defaultPin: string;
  /** Days the default PIN stays valid. */
  defaultPinDays: number;
}
