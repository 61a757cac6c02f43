import { z } from 'zod';
import { SUPPORTED_LOCALES } from '../locales.ts';
import { USER_STATUSES, USER_TYPE_CODES, type UserType } from '../user-types.ts';
import { keysetPageFields, keysetQueryFields, type ListOrder, sortQueryFields } from './common.ts';

/**
 * Contracts of the user-maintenance endpoints under /app/api/users (docs/api.md). Field problems are
 * message keys (`userId.tooShort`, ...; screens show `validation.{key}`), the same keys the rules in
 * packages/domain answer; the server answers every 4xx as ApiErrorBody `{ code, message, fieldErrors? }`.
 * The server applies the full rules (checkNewUserId, checkEmailPair, checkUserScope, mayAdministerUser);
 * these schemas give the shapes.
 */

export const userTypeSchema = z.enum(USER_TYPE_CODES as [UserType, ...UserType[]], {
  error: 'userType.invalid',
});
export const userStatusSchema = z.enum(USER_STATUSES, { error: 'status.invalid' });

/** The people search's orders: by name (last, first, user ID), user ID, user type or status. */
export const USER_LIST_ORDER = {
  sorts: ['name', 'userId', 'userType', 'status'],
  default: { sort: 'name', dir: 'asc' },
} as const satisfies ListOrder<string>;
export type UserSort = (typeof USER_LIST_ORDER.sorts)[number];

/**
 * `GET /app/api/users?q=&type=&status=&sort=&dir=&after=|before=`: `q` (2..100 characters once trimmed) is required
 * unless `type` or `status` narrows the search; paged by key (docs/paging.md).
 */
export const userSearchQuerySchema = z.object({
  q: z.string().optional(),
  type: userTypeSchema.optional(),
  status: userStatusSchema.optional(),
  ...sortQueryFields(USER_LIST_ORDER),
  ...keysetQueryFields,
});
export type UserSearchQuery = z.infer<typeof userSearchQuerySchema>;

export const companyRefSchema = z.object({ id: z.number().int(), number: z.string(), name: z.string() });
export type CompanyRef = z.infer<typeof companyRefSchema>;

/** One row of a search result. */
export const userSummarySchema = z
  .object({
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    userType: z.enum(USER_TYPE_CODES as [UserType, ...UserType[]]),
    status: z.enum(USER_STATUSES),
    company: companyRefSchema.nullable(),
  })
  .meta({ id: 'UserSummary' });
export type UserSummary = z.infer<typeof userSummarySchema>;

export const userSearchResultSchema = z
  .object({
    rows: z.array(userSummarySchema),
    ...keysetPageFields,
    /** The matches (a search matches at most LIMITS.searchMaxResults, else "Result set is too large"). */
    total: z.number().int(),
    pageCount: z.number().int(),
    pageSize: z.number().int(),
    /** A system administrator (Z) sees the read-only notice on this screen (docs/authorization.md). */
    readOnly: z.boolean(),
  })
  .meta({ id: 'UserSearchResult', description: "A page of users in the caller's scope" });
export type UserSearchResult = z.infer<typeof userSearchResultSchema>;

/** Where a user sits; every id names a record the server resolved (null: not placed there). */
export const userPlacementSchema = z.object({
  issuerGroupId: z.number().int().nullable(),
  issuerId: z.number().int().nullable(),
  companyGroupId: z.number().int().nullable(),
  companyId: z.number().int().nullable(),
  orgPointId: z.number().int().nullable(),
  accountGroupId: z.number().int().nullable(),
  cardholderId: z.number().int().nullable(),
});
export type UserPlacement = z.infer<typeof userPlacementSchema>;

/** `GET /app/api/users/:userId`. */
export const userDetailSchema = userSummarySchema
  .extend({
    locale: z.string(),
    loginType: z.string(),
    firstLogin: z.boolean(),
    createdAt: z.string(),
    lastLoginAt: z.string().nullable(),
    placement: userPlacementSchema,
    /** What the caller may do with this user (the server checks again on every write). */
    allowed: z.object({
      modify: z.boolean(),
      deactivate: z.boolean(),
      reactivate: z.boolean(),
      unlock: z.boolean(),
    }),
    /** The types the caller may give this user when editing. */
    assignableTypes: z.array(z.enum(USER_TYPE_CODES as [UserType, ...UserType[]])),
    readOnly: z.boolean(),
    /**
     * An SSO user's identity provider (its display name) and the subject it asserts for them: both null
     * for an SSO user not linked to one yet; null for a user who signs in with the portal (docs/sso.md).
     */
    singleSignOn: z.object({ provider: z.string().nullable(), subject: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'UserDetail', description: 'A user as the caller may see it' });
export type UserDetail = z.infer<typeof userDetailSchema>;

const id = z.number({ error: 'placement.invalid' }).int({ error: 'placement.invalid' }).positive({
  error: 'placement.invalid',
});

/**
 * Placement of a new or edited user, by record id. Only the columns the type needs are used
 * (USER_TYPE_INFO.scopeFields); an omitted one defaults to the caller's own. A cardholder (A) gets a new
 * cardholder record in `companyId` (and `orgPointId`) unless `cardholderId` names an existing one.
 */
export const userPlacementInputSchema = z.strictObject(
  {
    issuerGroupId: id.nullish(),
    issuerId: id.nullish(),
    companyGroupId: id.nullish(),
    companyId: id.nullish(),
    /** The company by its number (what people know), instead of `companyId`. */
    companyNumber: z
      .string({ error: 'placement.invalid' })
      .regex(/^\d{1,10}$/, { error: 'placement.invalid' })
      .nullish(),
    orgPointId: id.nullish(),
    accountGroupId: id.nullish(),
    cardholderId: id.nullish(),
  },
  { error: 'form.invalid' },
);
export type UserPlacementInput = z.infer<typeof userPlacementInputSchema>;

const text = (required: string) => z.string({ error: required });
const localeSchema = z.enum(SUPPORTED_LOCALES, { error: 'locale.invalid' });

/** `POST /app/api/users` → 201 UserDetail. */
export const createUserBodySchema = z.strictObject(
  {
    userId: text('userId.required'),
    email: text('email.required'),
    emailConfirm: text('emailConfirm.required'),
    firstName: text('firstName.required'),
    lastName: text('lastName.required'),
    userType: userTypeSchema,
    locale: localeSchema.optional(),
    placement: userPlacementInputSchema.optional(),
  },
  { error: 'form.invalid' },
);
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

/** `PATCH /app/api/users/:userId` → 200 UserDetail. `emailConfirm` is required when `email` changes. */
export const updateUserBodySchema = z.strictObject(
  {
    firstName: text('firstName.required').optional(),
    lastName: text('lastName.required').optional(),
    email: text('email.required').optional(),
    emailConfirm: text('emailConfirm.required').optional(),
    locale: localeSchema.optional(),
    userType: userTypeSchema.optional(),
    placement: userPlacementInputSchema.optional(),
  },
  { error: 'form.invalid' },
);
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** `PUT /app/api/users/:userId/status` → 200 UserDetail. Locked users are unlocked, not reactivated. */
export const setUserStatusBodySchema = z.strictObject(
  { status: z.enum(['Active', 'Inactive'], { error: 'status.invalid' }) },
  { error: 'form.invalid' },
);
export type SetUserStatusBody = z.infer<typeof setUserStatusBodySchema>;

/** `POST /app/api/users/:userId/unlock` (no body) → 200 UserDetail. */

/** Longest first or last name of a user. */
export const USER_NAME_MAX_LENGTH = 40;

/** Error codes the user endpoints answer (besides `request.invalid`, `session.required`, `csrf.*`). */
export const USER_API_ERROR_CODES = [
  'form.invalid',
  'search.tooLarge',
  'user.notFound',
  'userId.exists',
  'user.forbidden',
  'user.self',
  'user.notLocked',
] as const;
export type UserApiErrorCode = (typeof USER_API_ERROR_CODES)[number];

/**
 * `POST /app/api/users/bulk` (issue 20 item 3): one action — unlock, deactivate, reactivate — on the
 * users chosen in a list (at most a page of them). Each user is its own change, checked and audited as
 * the single action is; the answer says what happened to each.
 */
export const USER_BULK_ACTIONS = ['unlock', 'deactivate', 'reactivate'] as const;
export type UserBulkAction = (typeof USER_BULK_ACTIONS)[number];
export const USER_BULK_MAX = 50;
export const userBulkBodySchema = z.object({
  action: z.enum(USER_BULK_ACTIONS, { error: 'bulk.action.invalid' }),
  userIds: z
    .array(z.string().max(64, { error: 'bulk.userIds.invalid' }), { error: 'bulk.userIds.invalid' })
    .min(1, { error: 'bulk.userIds.none' })
    .max(USER_BULK_MAX, { error: 'bulk.userIds.tooMany' }),
});
export type UserBulkBody = z.infer<typeof userBulkBodySchema>;
export const userBulkResultSchema = z
  .object({
    results: z.array(
      z.object({
        userId: z.string(),
        /** done: changed; unchanged: already so; refused: `code` says why (a `validation.` key). */
        outcome: z.enum(['done', 'unchanged', 'refused']),
        code: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'UserBulkResult' });
export type UserBulkResult = z.infer<typeof userBulkResultSchema>;

/** `GET /app/api/users.csv?q=&type=&status=`: every match of the search (not one page), as CSV. */
export const userExportQuerySchema = userSearchQuerySchema.omit({ after: true, before: true });
export const USER_CSV_COLUMNS = [
  'userId',
  'firstName',
  'lastName',
  'email',
  'userType',
  'status',
  'company',
] as const;
