import type { UserDetail, UserLink, UserRoles, UserType } from '@cardportal/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { accessAs, getUserLink, linkUsers, unlinkUser } from '../../api/multi-user.ts';
import { getUserRoles, setUserRoles } from '../../api/roles.ts';
import {
  bulkUsers,
  createUser,
  getUser,
  searchUsers,
  setUserStatus,
  type UserSearchParams,
  unlockUser,
  updateUser,
} from '../../api/users.ts';
import { USER_FIELDS, validateUser } from './user-form.ts';

/** People's query keys: everything under `['people']`. */
export const peopleKeys = {
  all: ['people'] as const,
  search: (params: UserSearchParams) => ['people', 'search', params] as const,
  detail: (userId: string) => ['people', 'detail', userId.toLowerCase()] as const,
  roles: (userId: string) => ['people', 'roles', userId.toLowerCase()] as const,
  link: (userId: string) => ['people', 'link', userId.toLowerCase()] as const,
};

/** One page of users for the criteria (the URL's). */
export const userSearchQuery = (params: UserSearchParams) =>
  queryOptions({
    queryKey: peopleKeys.search(params),
    queryFn: ({ signal }) => searchUsers(params, signal),
  });

/** One user. */
export const userQuery = (userId: string) =>
  queryOptions({ queryKey: peopleKeys.detail(userId), queryFn: ({ signal }) => getUser(userId, signal) });

/** The roles a user holds and the ones the caller may give. */
export const userRolesQuery = (userId: string) =>
  queryOptions({
    queryKey: peopleKeys.roles(userId),
    queryFn: ({ signal }) => getUserRoles(userId, signal),
  });

/** The user's multi-user link. */
export const userLinkQuery = (userId: string) =>
  queryOptions({ queryKey: peopleKeys.link(userId), queryFn: ({ signal }) => getUserLink(userId, signal) });

/**
 * A change that answers the user: the answer replaces the cached one (no second request), and the
 * searches that may list it are read again.
 */
function useUserChange<V>(change: (values: V) => Promise<UserDetail>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (saved) => {
      client.setQueryData(peopleKeys.detail(saved.userId), saved);
      return client.invalidateQueries({ queryKey: ['people', 'search'] });
    },
  });
}

export const useCreateUser = () => useUserChange(createUser);
export const useUpdateUser = () =>
  useUserChange((v: { userId: string; body: Parameters<typeof updateUser>[1] }) =>
    updateUser(v.userId, v.body),
  );
export const useUserAction = () =>
  useUserChange((v: { userId: string; action: 'deactivate' | 'reactivate' | 'unlock' }) =>
    v.action === 'unlock'
      ? unlockUser(v.userId)
      : setUserStatus(v.userId, v.action === 'deactivate' ? 'Inactive' : 'Active'),
  );

/** Saving a user's roles: the answer replaces the cached roles. */
export function useSetUserRoles(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (roleIds: number[]) => setUserRoles(userId, roleIds),
    onSuccess: (saved: UserRoles) => client.setQueryData(peopleKeys.roles(userId), saved),
  });
}

/**
 * Linking or unlinking: the answer is the viewed user's link; the other members' links changed too,
 * so every cached link is read again when shown.
 */
export function useChangeLink(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { link: string[] } | { unlink: true }) =>
      'link' in v ? linkUsers(v.link) : unlinkUser(userId),
    onSuccess: async (saved: UserLink) => {
      await client.invalidateQueries({ queryKey: ['people', 'link'] });
      client.setQueryData(peopleKeys.link(userId), saved);
    },
  });
}

/** Starting to work as another user: answers the URL to load the application from (nothing to cache). */
export const useAccessAs = () => useMutation({ mutationFn: accessAs });

/** The search form's values (the criteria's rule is the screen's: it depends on type and status). */
export const peopleSearchSchema = z.object({ q: z.string(), type: z.string(), status: z.string() });

/**
 * The user form's schema: strings as typed, checked with the domain's rules (validateUser: user ID,
 * names, e-mail pair, type and, where the form asks for one, the company number), the same message
 * keys the server answers.
 */
export const userFormSchema = (options: {
  mode: 'create' | 'edit';
  caller: UserType;
  originalEmail?: string;
}) =>
  z
    .object(
      Object.fromEntries(USER_FIELDS.map((f) => [f, z.string()])) as Record<
        (typeof USER_FIELDS)[number],
        z.ZodString
      >,
    )
    .superRefine((values, ctx) => {
      const problems = validateUser(values, options);
      for (const field of USER_FIELDS) {
        const key = problems[field];
        if (key) ctx.addIssue({ code: 'custom', path: [field], message: key });
      }
    });

/** One action on several users: every search and every cached user is read again afterwards. */
export function useBulkUsers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: bulkUsers,
    onSuccess: () => client.invalidateQueries({ queryKey: peopleKeys.all }),
  });
}
