import { ConfigError, loadConfig } from './config.ts';
import { type Database, openPgliteSocket } from './db/client.ts';
import { AppError } from './http/app-error.ts';
import {
  type CliCommand,
  CliInputError,
  type CliIo,
  defineCommand,
  parseCommandArgs,
  usageText,
} from './kernel/cli.ts';
import { errorText } from './kernel/error-text.ts';
import { loadSecrets, type Secrets } from './kernel/secrets.ts';
import { MODULES } from './modules.ts';
import { initialiseDatabase, openDatabase } from './services.ts';
import { TextBundles } from './text/bundles.ts';

/**
 * The admin CLI (DESIGN §3) as a function: `runCli(argv)` parses the command line against the commands
 * every module declares (ServerModule.commands, kernel/cli.ts), opens the database and runs the command,
 * writing through `io` and answering an exit code — 0 done, 2 bad usage or bad input (one clear line,
 * plus the usage when the command line itself was wrong), 1 anything else. cli.ts runs it for
 * `npm run cli`; the tests run it in-process, on a database of their own.
 */

/** `db init` belongs to no module: it is what every command does first. */
const dbInit = defineCommand({
  name: 'db init',
  summary: 'create and migrate the database (and load demo data in demo mode)',
  async run() {},
});

/** Every command, in MODULES' order after `db init`. */
export const COMMANDS: readonly CliCommand[] = [dbInit, ...MODULES.flatMap((m) => m.commands ?? [])];

export const USAGE = usageText(COMMANDS);

export interface CliOptions {
  /** The environment the configuration is read from (process.env by default). */
  env?: NodeJS.ProcessEnv;
  io?: CliIo;
  /**
   * A database opened and initialised by the caller (a test's), used instead of the configuration's and
   * left open.
   */
  database?: Database;
}

const consoleIo: CliIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

/** Finds the command the arguments name (the longest name that matches their first words). */
function findCommand(argv: string[]): { command: CliCommand; rest: string[] } | undefined {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w)) return { command, rest: argv.slice(words.length) };
  }
  return undefined;
}

/**
 * Opens the same database as the server: the running server's embedded database over its local socket
 * (that server has initialised it), otherwise PostgreSQL with DATABASE_URL or the data directory itself,
 * initialised exactly as the server initialises it (initialiseDatabase: migrations and, in demo mode,
 * the demo data), so any command works as the first one on a new database.
 */
async function open(config: ReturnType<typeof loadConfig>, io: CliIo): Promise<Database> {
  if (!config.databaseUrl) {
    const shared = await openPgliteSocket(config.dataDir);
    if (shared) return shared;
  }
  const database = await openDatabase(config, { pool: 2 });
  try {
    const { demoLoaded } = await initialiseDatabase(database, config);
    // On standard error: standard output is the command's answer (JSON for cobrand export, user show).
    if (demoLoaded) io.err('new database: demo data loaded');
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export async function runCli(argv: string[], options: CliOptions = {}): Promise<number> {
  const io = options.io ?? consoleIo;
  const [first] = argv;
  if (!first || first === 'help' || first === '--help' || first === '-h') {
    io.out(USAGE);
    return 0;
  }
  const found = findCommand(argv);
  try {
    if (!found) throw new CliInputError(`Unknown command: ${argv.slice(0, 2).join(' ')}`, true);
    const command = found.command;
    const args = parseCommandArgs(command, found.rest);
    const config = loadConfig(options.env ?? process.env);
    const database = options.database ?? (await open(config, io));
    try {
      if (command === dbInit) {
        io.out(`database ready (${database.kind})`);
        return 0;
      }
      let secrets: Promise<Secrets> | undefined;
      await command.run(
        {
          db: database.db,
          database,
          config,
          io,
          texts: new TextBundles(config.bundlesDir),
          secrets: () => {
            secrets ??= loadSecrets(database.db, config);
            return secrets;
          },
        },
        args,
      );
      return 0;
    } finally {
      if (!options.database) await database.close();
    }
  } catch (error) {
    // A refusal: bad usage, bad configuration, or an AppError (what was asked cannot be done).
    const input = error instanceof CliInputError || error instanceof ConfigError || error instanceof AppError;
    if (input) {
      io.err((error as Error).message);
      if (error instanceof CliInputError && error.usage) io.err(USAGE);
      return 2;
    }
    // The driver's message: Drizzle's own would list the query's parameters (hashes, addresses).
    io.err(errorText(error));
    return 1;
  }
}
