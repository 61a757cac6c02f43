import { z } from 'zod';
import { canonicalUserId } from './user-id.ts';
import {
  USER_STATUSES,
  USER_TYPE_CODES,
  USER_TYPE_INFO,
  type UserStatus,
  type UserType,
} from './user-types.ts';

/**
 * Multi-user (seed 001 §4, §6, §8): several user IDs of one person linked together, so that after
 * signing in with one the person chooses which ID to work as. Decisions in docs/multi-user.md.
 */

/** Most roles the members of one link may hold together (seed 001 §9). */
export const MULTI_USER_MAX_ROLES = 75;
/** Most user IDs in one link (ours: the seed gives none; a person with more needs a conversation). */
export const MULTI_USER_MAX_MEMBERS = 10;

/** What the linking rules need to know of a user. */
export interface LinkCandidate {
  type: UserType;
  status: UserStatus;
  sso: boolean;
  loginType: string;
  /** The user's issuer (every member of a link belongs to one issuer). */
  issuerId: number | null;
  /** Its company's multi-user flag; null for a user without a company (a company group administrator). */
  companyMultiUser: boolean | null;
  /** Roles it holds. */
  roles: number;
  /** It is a member of another link already. */
  linkedElsewhere: boolean;
}

export type LinkProblem =
  | 'multiUser.notActive'
  | 'multiUser.typeNotLinkable'
  | 'multiUser.sso'
  | 'multiUser.twoFactor'
  | 'multiUser.companyDisabled'
  | 'multiUser.alreadyLinked';

/**
 * The rules that keep a link from handing anyone a user ID whose credentials they did not present
 * (docs/multi-user.md "Who may link", "Confirmation"):
 * - the caller may modify EVERY member of the resulting link, the ones already in it included;
 * - the caller is never a member itself, named or already in the link (`multiUser.self`: no
 *   self-administration, as roles are never given to oneself), and never unlinks itself;
 * - growing a link resets every existing member's confirmation; a member's confirmation names the
 *   members it was shown (`sameLinkMembers`); choosing needs the chooser and the target confirmed.
 */
export const MULTI_USER_SELF = 'multiUser.self';

/**
 * Why one user cannot be linked, or undefined. Only company group administrators and below (G, C, O, S,
 * A); never SSO users, never two-factor users (a one-time code or a token); only active users; its
 * company must have multi-user on; a user belongs to one link at most ("only one multi-user may be
 * linked").
 */
export function checkLinkCandidate(user: LinkCandidate): LinkProblem | undefined {
  if (user.status !== 'Active') return 'multiUser.notActive';
  if (USER_TYPE_INFO[user.type].level > USER_TYPE_INFO.G.level) return 'multiUser.typeNotLinkable';
  if (user.sso) return 'multiUser.sso';
  if (user.loginType !== 'pwd') return 'multiUser.twoFactor';
  if (user.type !== 'G' && user.companyMultiUser !== true) return 'multiUser.companyDisabled';
  if (user.linkedElsewhere) return 'multiUser.alreadyLinked';
  return undefined;
}

export type LinkSetProblem =
  | 'multiUser.tooFew'
  | 'multiUser.tooMany'
  | 'multiUser.oneGroupAdmin'
  | 'multiUser.tooManyRoles'
  | 'multiUser.otherIssuer';

/**
 * Why a whole link cannot stand, or undefined: two members at least, MULTI_USER_MAX_MEMBERS at most,
 * one company group administrator at most, all of one issuer, their roles together 75 at most.
 */
export function checkLinkSet(members: readonly Pick<LinkCandidate, 'type' | 'issuerId' | 'roles'>[]) {
  let problem: LinkSetProblem | undefined;
  if (members.length < 2) problem = 'multiUser.tooFew';
  else if (members.length > MULTI_USER_MAX_MEMBERS) problem = 'multiUser.tooMany';
  else if (members.filter((m) => m.type === 'G').length > 1) problem = 'multiUser.oneGroupAdmin';
  else if (new Set(members.map((m) => m.issuerId)).size > 1 || members.some((m) => m.issuerId === null))
    problem = 'multiUser.otherIssuer';
  else if (members.reduce((n, m) => n + m.roles, 0) > MULTI_USER_MAX_ROLES)
    problem = 'multiUser.tooManyRoles';
  return problem;
}

/** `POST /app/api/multi-user/links`: link these user IDs (an existing link of one of them grows). */
export const linkUsersBodySchema = z.strictObject({
  userIds: z
    .array(z.string().trim().min(1).max(64), { error: 'multiUser.userIds.invalid' })
    .min(2, { error: 'multiUser.tooFew' })
    .max(MULTI_USER_MAX_MEMBERS, { error: 'multiUser.tooMany' }),
});
export type LinkUsersBody = z.infer<typeof linkUsersBodySchema>;

/**
 * `POST /app/api/multi-user/confirm`: the signed-in member accepts or declines its link. Accepting names
 * the other members it was shown (`userIds`): a confirmation holds only for the membership the person
 * saw, so a link grown meanwhile is refused (`multiUser.linkChanged`) instead of confirmed unseen.
 */
export const confirmLinkBodySchema = z
  .strictObject({
    accept: z.boolean({ error: 'form.invalid' }),
    userIds: z
      .array(z.string().trim().min(1).max(64), { error: 'multiUser.userIds.invalid' })
      .min(1, { error: 'multiUser.userIds.invalid' })
      .max(MULTI_USER_MAX_MEMBERS, { error: 'multiUser.userIds.invalid' })
      .optional(),
  })
  .refine((body) => !body.accept || body.userIds !== undefined, {
    path: ['userIds'],
    error: 'multiUser.userIds.invalid',
  });
export type ConfirmLinkBody = z.infer<typeof confirmLinkBodySchema>;

/**
 * Whether the user IDs a member was shown are exactly the other members of its link now (any case, any
 * order): the condition for its confirmation to count.
 */
export function sameLinkMembers(shown: readonly string[], current: readonly string[]): boolean {
  const norm = (ids: readonly string[]) => [...new Set(ids.map((id) => canonicalUserId(id)))].sort();
  const a = norm(shown);
  const b = norm(current);
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** `POST /app/api/multi-user/choose`: the user ID to work as in this session. */
export const chooseUserBodySchema = z.strictObject({
  userId: z.string({ error: 'multiUser.choice.invalid' }).trim().min(1).max(64),
});
export type ChooseUserBody = z.infer<typeof chooseUserBodySchema>;

export const linkMemberSchema = z
  .object({
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    userType: z.enum(USER_TYPE_CODES as [UserType, ...UserType[]]),
    status: z.enum(USER_STATUSES),
    companyNumber: z.string().nullable(),
    companyName: z.string().nullable(),
    confirmed: z.boolean(),
  })
  .meta({ id: 'LinkMember' });
export type LinkMember = z.infer<typeof linkMemberSchema>;

/** `GET /app/api/users/:userId/link`: the user's link as an administrator sees it. */
export const userLinkSchema = z
  .object({
    userId: z.string(),
    members: z.array(linkMemberSchema),
    /** The caller may link this user to others / unlink it. */
    mayLink: z.boolean(),
    mayUnlink: z.boolean(),
  })
  .meta({ id: 'UserLink' });
export type UserLink = z.infer<typeof userLinkSchema>;

/** The signed-in user's multi-user state (`GET /app/api/me`'s `multiUser`). */
export const multiUserStateSchema = z.object({
  /** Its own membership awaits its confirmation: the IDs it is being linked with. */
  confirm: z.array(linkMemberSchema).nullable(),
  /** IDs it may choose to work as in this session (itself first); empty once chosen or when none. */
  choices: z.array(linkMemberSchema),
});
export type MultiUserState = z.infer<typeof multiUserStateSchema>;

/** `POST /app/api/multi-user/choose` and `POST /app/api/access-as[/return]`: where to go next. */
export const nextUrlSchema = z
  .object({ url: z.string().describe('The application home: a new session is set') })
  .describe('The session changed');
