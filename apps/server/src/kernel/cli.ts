import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { TextBundles } from '../text/bundles.ts';
import type { Secrets } from './secrets.ts';

/**
 * The admin CLI's commands (DESIGN §3): each feature module declares its own in its ServerModule
 * (`commands`), and the CLI (cli.ts) parses the command line with node:util `parseArgs` against the
 * command's declared options. A command writes through `io`, never to the console, so the same command
 * runs in a process of its own (`npm run cli`) and in-process (the tests, runCli).
 */

/** Where a command writes: standard output is its answer (JSON for `cobrand export`, `user show`). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** What a command gets: the database (already initialised), the configuration and the texts. */
export interface CliContext {
  db: Db;
  /** The same database, for bulk work in a transaction of its own (Database.bulk). */
  database: Database;
  config: Config;
  texts: TextBundles;
  io: CliIo;
  /** The server secrets (HMAC key, encryption key), read on first use. */
  secrets(): Promise<Secrets>;
}

/** What `parseArgs` hands the command: its options' values by name, and the positional arguments. */
export interface CliArgs<O extends ParseArgsOptionsConfig> {
  values: {
    [K in keyof O]: O[K]['type'] extends 'boolean'
      ? boolean
      : O[K] extends { default: string }
        ? string
        : string | undefined;
  };
  positionals: string[];
}

export interface CliCommand<O extends ParseArgsOptionsConfig = ParseArgsOptionsConfig> {
  /** The words that select it: `user create`. */
  name: string;
  /** The arguments after the name, as the usage shows them: `--user-id ID [--cobrand NAME]`, `FILE`. */
  synopsis?: string;
  /** What it does, for the usage text (may span lines). */
  summary: string;
  /** Its options, as node:util parseArgs takes them (string options default to undefined). */
  options?: O;
  /** The positional arguments it requires, by the names the usage gives them (`ID`, `FILE`). */
  positionals?: readonly string[];
  run(context: CliContext, args: CliArgs<O>): Promise<void>;
}

/** Declares a command with its options' types inferred (the command's `values` are typed by them). */
export function defineCommand<const O extends ParseArgsOptionsConfig>(command: CliCommand<O>): CliCommand {
  return command as unknown as CliCommand;
}

/** Bad usage or bad input: the message is the answer (exit code 2); `usage` adds the usage text. */
export class CliInputError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

/** Parses a command's arguments: unknown options, missing values and missing positionals are refused. */
export function parseCommandArgs(command: CliCommand, args: string[]): CliArgs<ParseArgsOptionsConfig> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options: command.options ?? {}, strict: true, allowPositionals: true });
  } catch (error) {
    // node:util's own words: "Unknown option '--x'", "Option '--user-id <value>' argument missing".
    // (without its hint on positionals that start with '-': no command takes one).
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new CliInputError(`${command.name}: ${message}`, true);
  }
  const required = command.positionals ?? [];
  if (parsed.positionals.length < required.length) {
    throw new CliInputError(
      `${command.name} needs ${required.slice(parsed.positionals.length).join(' ')}`,
      true,
    );
  }
  if (parsed.positionals.length > required.length) {
    throw new CliInputError(
      `${command.name}: unexpected argument ${parsed.positionals[required.length]}`,
      true,
    );
  }
  return parsed as CliArgs<ParseArgsOptionsConfig>;
}

/** The usage text of a set of commands, aligned; a synopsis may span lines (continued under its first). */
export function usageText(commands: readonly CliCommand[]): string {
  const width = 44;
  const lines = ['Usage: npm run cli -- <command>'];
  for (const command of commands) {
    const [first = '', ...more] = (command.synopsis ?? '').split('\n');
    const heads = [
      `${command.name} ${first}`.trim(),
      ...more.map((m) => `${' '.repeat(command.name.length + 1)}${m}`),
    ];
    const summary = command.summary.split('\n');
    const last = heads.at(-1) ?? '';
    for (const head of heads.slice(0, -1)) lines.push(`  ${head}`);
    if (last.length + 2 > width) {
      lines.push(`  ${last}`);
      for (const s of summary) lines.push(`  ${' '.repeat(width)}${s}`);
    } else {
      lines.push(`  ${last.padEnd(width)}${summary[0] ?? ''}`);
      for (const s of summary.slice(1)) lines.push(`  ${' '.repeat(width)}${s}`);
    }
  }
  return lines.join('\n');
}
