import { type CliOptions, runCli } from '../../src/commands.ts';
import type { TestContext } from '../harness.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The admin CLI in-process (runCli): its exit code and what it printed, each line ended by a newline. */
export async function runCliCapturing(args: string[], options: Omit<CliOptions, 'io'>): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    ...options,
    io: { out: (line) => (stdout += `${line}\n`), err: (line) => (stderr += `${line}\n`) },
  });
  return { code, stdout, stderr };
}

/** The CLI against a test server's own database and data directory (demo on), as an operator runs it. */
export function cliOf(ctx: () => TestContext): (args: string[]) => Promise<CliRun> {
  return (args) => {
    const { config, services } = ctx();
    return runCliCapturing(args, {
      env: { NODE_ENV: 'test', DATA_DIR: config.dataDir, DEMO: '1', PUBLIC_URL: config.publicUrl },
      database: services.database,
    });
  };
}
