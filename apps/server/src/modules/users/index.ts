import type { ServerModule } from '../../kernel/module.ts';
import { purgeUnknownAttempts } from './attempts.ts';
import { userCommands } from './commands.ts';
import { usersRoutes } from './routes.ts';

/** The job that forgets unknown user IDs' failure counters (docs/jobs.md). */
export const USERS_PURGE_UNKNOWN_ATTEMPTS = 'users.purge-unknown-attempts';

export {
  type Claim,
  claimGuess,
  evaluateGuess,
  guardedAttempt,
  lockUser,
  markSignedIn,
  purgeUnknownAttempts,
  recordSuccess,
  recordUnknownFailure,
  successTemplate,
  UNKNOWN_ATTEMPTS_CAP,
} from './attempts.ts';
/** A new user's row (first-login state, its first password's hash in the history) and the user ID check. */
export { insertUser, userIdTaken } from './repository.ts';
export {
  createUser,
  describeUser,
  findUserByPk,
  findUserByUserId,
  ldapIdOrDecoy,
  type NewUser,
  questionIdOrDecoy,
  recentPasswordHashes,
  recordPassword,
  refusedAtPasswordForms,
  replacePassword,
  saveSecurityAnswer,
  securityAnswerOf,
  setTemporaryPassword,
  type UserRow,
  unlockUser,
  updateOwnSettings,
} from './users.ts';

/** Users: their records, creation, lock and unlock, failed-attempt lockout, and the People screens' API. */
export const usersModule: ServerModule = {
  routes: usersRoutes,
  commands: userCommands,
  jobs: [
    // Keeps unknown_attempts bounded (attempts.ts): at most UNKNOWN_ATTEMPTS_CAP rows after each run.
    { name: USERS_PURGE_UNKNOWN_ATTEMPTS, cron: '* * * * *', run: (app) => purgeUnknownAttempts(app.db) },
  ],
};
