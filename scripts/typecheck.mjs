/**
 * `npm run typecheck`: every TypeScript project of the repository, checked by TypeScript 7's native
 * compiler (the `typescript7` devDependency; docs/testing.md). TypeScript 5.9 stays installed as
 * `typescript` for the tools that load TypeScript's JavaScript API (dependency-cruiser's parser), which
 * 7.0 does not ship; `node_modules/.bin/tsc` may point at either, so this names the compiler by path.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const PROJECTS = ['packages/domain', 'packages/ui', 'apps/server', 'apps/portal', 'apps/web', 'e2e', 'bench'];
const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript7/package.json')),
  'bin/tsc',
);

let failed = 0;
for (const project of PROJECTS) {
  const run = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    failed++;
    console.error(`typecheck: ${project} failed (exit ${run.status ?? run.signal})`);
  }
}
process.exit(failed ? 1 : 0);
