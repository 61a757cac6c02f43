import type { ServerModule } from '../../kernel/module.ts';
import { usersRoutes } from './routes.ts';

export {
  guardedAttempt,
  lockUser,
  markSignedIn,
  recordSuccess,
  recordUnknownFailure,
} from './attempts.ts';
export {
  createUser,
  describeUser,
  findUserByPk,
  findUserByUserId,
  type NewUser,
  recentPasswordHashes,
  UserInputError,
  type UserRow,
  unlockUser,
} from './users.ts';

/** Users: their records, creation, lock and unlock, failed-attempt lockout, and the People screens' API. */
export const usersModule: ServerModule = { routes: usersRoutes };
