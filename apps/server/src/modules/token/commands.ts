import { CliInputError, defineCommand } from '../../kernel/cli.ts';
import { findUserByUserId } from '../users/index.ts';
import { assignToken, DEFAULT_PIN_DAYS } from './soft-token.ts';

/** The soft-token commands of the admin CLI. */
export const tokenCommands = [
  defineCommand({
    name: 'token assign',
    synopsis: '--user-id ID',
    summary: 'assign a software token: prints the otpauth URI and the default PIN',
    options: { 'user-id': { type: 'string' } },
    async run({ db, io, secrets }, { values }) {
      const userId = values['user-id'];
      if (!userId) throw new CliInputError('token assign needs --user-id', true);
      const user = await findUserByUserId(db, userId);
      if (!user) throw new CliInputError(`no such user: ${userId}`);
      const { uri, defaultPin } = await assignToken(db, await secrets(), user);
      io.out(`otpauth URI: ${uri}`);
      io.out(
        `default PIN: ${defaultPin} (valid ${DEFAULT_PIN_DAYS} days; the first sign-in asks for a new PIN)`,
      );
    },
  }),
];
