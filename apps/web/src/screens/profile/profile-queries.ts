import {
  challengeQuestionBodySchema,
  checkSecurityAnswer,
  languageBodySchema,
  type Profile,
  softTokenBodySchema,
  twoFactorBodySchema,
} from '@cardportal/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  getProfile,
  issueSoftToken,
  setChallengeQuestion,
  setLanguage,
  setTwoFactor,
} from '../../api/profile.ts';

/** My Profile's query keys: everything under `['profile']`. */
export const profileKeys = {
  all: ['profile'] as const,
  detail: ['profile', 'detail'] as const,
};

/** The signed-in user's profile. */
export const profileQuery = () =>
  queryOptions({ queryKey: profileKeys.detail, queryFn: ({ signal }) => getProfile(signal) });

/**
 * A change that answers the new profile: the answer replaces the cached one (no second request), so
 * every section shows the saved state at once.
 */
function useProfileChange<V>(change: (values: V) => Promise<Profile>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (profile) => client.setQueryData(profileKeys.detail, profile),
  });
}

export const useSetLanguage = () => useProfileChange((v: { locale: string }) => setLanguage(v.locale));
export const useSetChallengeQuestion = () => useProfileChange(setChallengeQuestion);
export const useSetTwoFactor = () =>
  useProfileChange((v: { enabled: boolean; currentPassword: string }) =>
    setTwoFactor(v.enabled, v.currentPassword),
  );

/** A new soft token (shown once, never cached); the profile is read again (its token state changed). */
export function useIssueSoftToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { currentPassword: string }) => issueSoftToken(v.currentPassword),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.all }),
  });
}

/** The language form: the API's body schema. */
export const languageFormSchema = languageBodySchema;

/**
 * The challenge-question form: the API's body schema, with a question required and the answer checked
 * by the domain's own rule (the server applies the same, with the same message keys).
 */
export const questionFormSchema = challengeQuestionBodySchema.extend({
  questionId: z.string().min(1, { error: 'securityQuestion.required' }),
  answer: z.string().superRefine((answer, ctx) => {
    const [problem] = checkSecurityAnswer(answer);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});

/** Two-factor on/off asks for the current password (the switch's direction is the screen's). */
export const twoFactorFormSchema = twoFactorBodySchema.pick({ currentPassword: true });

export const softTokenFormSchema = softTokenBodySchema;

/** The server's code for a wrong current password lands on the password field. */
export const CURRENT_PASSWORD_CODES = { 'currentPassword.wrong': 'currentPassword' } as const;
