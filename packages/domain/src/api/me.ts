import { z } from 'zod';
import type { CurrentUser } from '../login.ts';
import { multiUserStateSchema } from '../multi-user.ts';
import { PERMISSIONS } from '../roles.ts';
import { USER_TYPE_CODES, type UserType } from '../user-types.ts';
import type { Expect, SameType } from './common.ts';

/** `GET /app/api/me`: the signed-in user of a full session (CurrentUser). */
export const currentUserSchema = z
  .object({
    userId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    userType: z.enum(USER_TYPE_CODES as [UserType, ...UserType[]]),
    cobrand: z.string(),
    locale: z.string(),
    lastLoginAt: z.string().nullable(),
    permissions: z.array(z.enum(PERMISSIONS)).describe("Permissions from the user's roles"),
    multiUser: multiUserStateSchema.describe('A link to confirm, or the IDs to choose from after sign-in'),
    accessedBy: z
      .object({ userId: z.string(), firstName: z.string(), lastName: z.string() })
      .nullable()
      .describe('Access as user: who is really working in this session, else null'),
  })
  .meta({ id: 'CurrentUser', description: 'The signed-in user' });

// Compile-time check: the schema answers exactly the interface the application reads.
export type CurrentUserContractCheck = Expect<SameType<z.output<typeof currentUserSchema>, CurrentUser>>;
