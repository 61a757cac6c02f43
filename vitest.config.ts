import { defineConfig } from 'vitest/config';
import { MAIN_GROUP, WORKERS } from './vitest.shared.ts';

/**
 * Every test layer in one run (npm test): domain rules, the server on PostgreSQL (+ Redis) and, for what
 * differs by engine, on PGlite, the SPAs' unit tests, and the browser tests in Chromium against the built
 * product (on PGlite).
 */

/**
 * Server tests that run on the embedded database as well as on PostgreSQL: those of the code that differs
 * by engine (docs/testing.md, "One engine for what does not differ"). Every other server test runs on
 * PostgreSQL alone, and a `*.pglite.test.ts` on the embedded database alone.
 */
const PGLITE_TOO = [
  // the engines' one place for a driver's raw result
  'db-contract',
  // pg-boss on its PGlite adapter, and on PostgreSQL
  'jobs',
  // a transaction file staged by COPY on PostgreSQL, by batched inserts on the embedded database, in a
  // bulk session (one transaction on a connection of its own)
  'transactions-import',
  'transactions-upload',
  // the admin CLI, whose first home is the embedded database
  'cli',
  // the sign-in's prepared statements, and guesses racing for one user's allowance
  'login',
  'attacks/brute-force',
  // every route once, signed in and not: each one's SQL on the embedded engine
  'authorization-matrix',
  // existing data upgraded through the migrations
  'organisations',
  // a copy made by scripts/suite-at-scale.ts (name-scaleN.test.ts) goes where its original goes
].map((name) => `apps/server/test/${name}{,-scale[0-9]}.test.ts`);

/** Migrated, demo-loaded database copied for every test server (apps/server/test/support/db-template.ts). */
const DB_TEMPLATE = 'apps/server/test/support/db-template.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts', 'packages/i18n/*.test.ts'],
          sequence: MAIN_GROUP,
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          name: 'server-pglite',
          // The embedded database's own tests, and the tests of what differs by engine (PGLITE_TOO); the
          // rest run on PostgreSQL alone, and the browser tests run the embedded product end to end.
          include: ['apps/server/test/**/*.pglite.test.ts', ...PGLITE_TOO],
          env: { TEST_DB: 'pglite' },
          // One module registry per worker for all its files: the server is loaded once a worker, not
          // once a file (docs/testing.md); test-isolation.pglite.test.ts keeps module mocks out.
          isolate: false,
          globalSetup: [DB_TEMPLATE],
          sequence: MAIN_GROUP,
          testTimeout: 180_000,
          hookTimeout: 300_000,
          pool: 'forks',
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: ['apps/server/test/**/*.test.ts'],
          // *.pglite.test.ts are about the embedded database alone.
          exclude: ['apps/server/test/**/*.pglite.test.ts', 'apps/server/test/**/*.timing.test.ts'],
          env: { TEST_DB: 'postgres' },
          isolate: false,
          globalSetup: [DB_TEMPLATE],
          sequence: MAIN_GROUP,
          testTimeout: 180_000,
          hookTimeout: 300_000,
          pool: 'forks',
          maxWorkers: WORKERS,
        },
      },
      // Timing comparisons (user enumeration) run after the main group, so no other test's load skews
      // them; the four files (two comparisons files for each engine) run side by side, one worker each: a
      // comparison spends most of its time waiting at its 15 or 40 ms floor (about a fifth of a core
      // each), and each alternates its known and unknown calls one by one, so whatever the other files
      // cost falls on both sides alike.
      ...(['pglite', 'postgres'] as const).map((db) => ({
        test: {
          name: `server-timing-${db}`,
          include: ['apps/server/test/**/*.timing.test.ts'],
          env: { TEST_DB: db },
          globalSetup: [DB_TEMPLATE],
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks' as const,
          maxWorkers: 4,
        },
      })),
      // The smoke version of every benchmark (bench/), in the main group: its sections are small (two
      // sign-ins in flight) and assert that every figure is reported and no sign-in failed, not a speed, so
      // the group's load changes its figures, not its verdict. Its products have their own databases, no
      // Redis and no rate limits, so it counts nothing another test counts. Being the first project by name
      // ("bench-smoke"), its 90-second file starts first, beside the browser specs (docs/testing.md).
      {
        test: {
          name: 'bench-smoke',
          include: ['bench/*.test.ts'],
          sequence: MAIN_GROUP,
          testTimeout: 600_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: WORKERS,
        },
      },
      'apps/*/vitest.config.ts',
      // Browser tests: one product per worker (e2e/support/global-setup.ts), in the main group beside the
      // server tests. The co-brand gallery's cases run three at a time, each in a browser context of its own.
      {
        test: {
          name: 'browser',
          include: ['e2e/**/*.spec.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          sequence: MAIN_GROUP,
          // Sized for the slowest day measured (2026-11-29: the same specs ran 2.5 × slower than in
          // session 15, and 120 s failed a dozen tests at a load average of 25 on two cores): a
          // timeout only ends a hung test; a test that passes takes what it takes (docs/testing.md).
          testTimeout: 600_000,
          hookTimeout: 600_000,
          pool: 'forks',
          maxWorkers: WORKERS,
          maxConcurrency: 3,
          // expect.poll waits on a product's answer (a sign-in hashes a password): under the main group's
          // load that takes longer than vitest's default second, and a spec failed on it (docs/testing.md).
          expect: { poll: { timeout: 60_000 } },
        },
      },
    ],
  },
});
