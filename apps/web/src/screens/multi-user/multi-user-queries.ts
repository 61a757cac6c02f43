import { chooseUserBodySchema } from '@cardportal/domain';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { chooseUser, confirmLink } from '../../api/session.ts';

/**
 * The multi-user gate's writes. Both end the gate by loading the application again (the session
 * changed), so nothing is cached: no query keys here.
 */
export const useConfirmLink = () =>
  useMutation({
    mutationFn: (v: { accept: boolean; userIds: string[] }) => confirmLink(v.accept, v.userIds),
  });

export const useChooseUser = () => useMutation({ mutationFn: (userId: string) => chooseUser(userId) });

/** The choice form: the API's body (a user ID is always chosen: the first one is preselected). */
export const chooseFormSchema = chooseUserBodySchema.extend({
  userId: z
    .string()
    .trim()
    .min(1, { error: 'multiUser.choice.invalid' })
    .max(64, { error: 'multiUser.choice.invalid' }),
});
