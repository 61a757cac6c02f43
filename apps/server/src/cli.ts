import { runCli } from './commands.ts';

/** `npm run cli -- <command>`: the admin CLI (commands.ts) in a process of its own. */
process.exitCode = await runCli(process.argv.slice(2));
