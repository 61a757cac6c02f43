import { defineConfig } from 'vitest/config';

/**
 * Every test layer in one run (npm test): domain rules, the server on PGlite and on PostgreSQL
 * (+ Redis), the SPAs' unit tests, and the browser tests in Chromium against the built product.
 */
/** Migrated, demo-loaded database copied for every test server (apps/server/test/support/db-template.ts). */
const DB_TEMPLATE = 'apps/server/test/support/db-template.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          include: ['packages/domain/src/**/*.test.ts', 'packages/i18n/*.test.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'server-pglite',
          include: ['apps/server/test/**/*.test.ts'],
          // *.postgres.test.ts need PostgreSQL and Redis (faults, several instances); *.timing.test.ts
          // run alone, below.
          exclude: ['apps/server/test/**/*.postgres.test.ts', 'apps/server/test/**/*.timing.test.ts'],
          env: { TEST_DB: 'pglite' },
          globalSetup: [DB_TEMPLATE],
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: ['apps/server/test/**/*.test.ts'],
          // *.pglite.test.ts are about the embedded database alone.
          exclude: ['apps/server/test/**/*.pglite.test.ts', 'apps/server/test/**/*.timing.test.ts'],
          env: { TEST_DB: 'postgres' },
          globalSetup: [DB_TEMPLATE],
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      // Timing comparisons (user enumeration) run last and alone, so no other test's load skews them.
      ...(['pglite', 'postgres'] as const).map((db, i) => ({
        test: {
          name: `server-timing-${db}`,
          include: ['apps/server/test/**/*.timing.test.ts'],
          env: { TEST_DB: db },
          globalSetup: [DB_TEMPLATE],
          sequence: { groupOrder: 4 + i },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks' as const,
          maxWorkers: 1,
          fileParallelism: false,
        },
      })),
      // The smoke version of every benchmark (bench/), last: it loads the machine on purpose.
      {
        test: {
          name: 'bench-smoke',
          include: ['bench/*.test.ts'],
          sequence: { groupOrder: 6 },
          testTimeout: 600_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
      'apps/*/vitest.config.ts',
      // Browser tests, each project with a product of its own (global-setup.ts starts one per project). The
      // co-brand gallery (a third of the browser time) runs in the PostgreSQL server tests' group, on one of
      // its two workers; the other browser specs, which share their product, one file at a time after it.
      {
        test: {
          name: 'browser',
          include: ['e2e/**/*.spec.ts'],
          exclude: ['e2e/cobrand-gallery.spec.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          sequence: { groupOrder: 3 },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'browser-gallery',
          include: ['e2e/cobrand-gallery.spec.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
          // The group's worker count (server-postgres's): a group shares one pool.
          maxWorkers: 2,
          // Its cases are marked concurrent: three at a time, each in a browser context of its own.
          maxConcurrency: 3,
        },
      },
    ],
  },
});
