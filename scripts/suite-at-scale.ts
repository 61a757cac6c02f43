/**
 * `npm run test:scale -- 3`: the whole `npm test` with every test that grows with the product's features
 * present N times (docs/testing.md, "At three times the tests"). Each such file gets N − 1 copies beside
 * it (`people.spec.ts` → `people-scale2.spec.ts`, `jobs.pglite.test.ts` → `jobs-scale2.pglite.test.ts`,
 * so each copy lands in the same projects as its original); the copies are removed afterwards, however the
 * run ends. What does not grow with features runs once, as in `npm test`: the co-brand gallery and the
 * portal's legibility (co-brands × languages), the enumeration timing comparisons, the benchmarks' smoke
 * runs and the translation bundles' check. Prints the wall time of the run and of its vitest part.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const scale = Number(process.argv[2] ?? '3');
if (!Number.isInteger(scale) || scale < 2 || scale > 9) {
  console.error('usage: npm run test:scale -- N   (N from 2 to 9: how many times each growing test runs)');
  process.exit(2);
}

/** Test files that grow with the features, under each folder; the rest stay single. */
const GROWING: { dir: string; test: RegExp }[] = [
  { dir: 'apps/server/test', test: /\.test\.ts$/ },
  { dir: 'apps/web/src', test: /\.test\.tsx?$/ },
  { dir: 'apps/portal/src', test: /\.test\.tsx?$/ },
  { dir: 'packages/domain/src', test: /\.test\.ts$/ },
  { dir: 'e2e', test: /\.spec\.ts$/ },
];
const FIXED = [/\.timing\.test\.ts$/, /cobrand-gallery\.spec\.ts$/, /portal-legibility\.spec\.ts$/];

/** Every file under `dir` (relative to the repository), node_modules left out. */
const files = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => !name.split(path.sep).includes('node_modules'))
    .map((name) => path.join(dir, name));

/** `a/b/name.kind.test.ts` → `a/b/name-scaleN.kind.test.ts` (the suffixes choose the projects). */
function copyName(file: string, n: number): string {
  const base = path.basename(file);
  const dot = base.indexOf('.');
  return path.join(path.dirname(file), `${base.slice(0, dot)}-scale${n}${base.slice(dot)}`);
}

const originals = GROWING.flatMap(({ dir, test }) =>
  files(dir).filter((f) => test.test(f) && !/-scale\d+\./.test(f) && !FIXED.some((x) => x.test(f))),
);
const copies = originals.flatMap((file) =>
  Array.from({ length: scale - 1 }, (_, i) => [file, copyName(file, i + 2)] as const),
);
const cleanUp = () => {
  for (const [, copy] of copies) rmSync(path.join(ROOT, copy), { force: true });
};
process.on('SIGINT', () => {
  cleanUp();
  process.exit(130);
});
process.on('SIGTERM', () => {
  cleanUp();
  process.exit(143);
});

let status = 1;
try {
  for (const [file, copy] of copies) copyFileSync(path.join(ROOT, file), path.join(ROOT, copy));
  console.log(`suite at ${scale}×: ${originals.length} growing files, ${copies.length} copies added`);
  const started = Date.now();
  const run = spawnSync('npm', ['test', ...process.argv.slice(3)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, SUITE_SCALE: String(scale) },
  });
  status = run.status ?? 1;
  console.log(
    `suite at ${scale}×: npm test took ${((Date.now() - started) / 1000).toFixed(0)} s, exit ${status}`,
  );
} finally {
  cleanUp();
}
process.exit(status);
