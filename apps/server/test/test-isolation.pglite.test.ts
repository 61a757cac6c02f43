import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server projects run their files without isolation (vitest.config.ts, `isolate: false`): a worker
 * keeps one module registry for every file it runs, which saves loading the server ~100 times a run
 * (docs/testing.md). A module mock would then reach only the files that happen to load the module
 * first, so a server test hands its test double in instead (generated-password.test.ts shows how).
 * Runs once, in the PGlite project: it needs no database.
 */
const TEST_DIR = import.meta.dirname;

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => path.join(dir, name));

/** Calls that replace a module for the rest of the worker's life, or reset the registry the files share. */
export const SHARED_REGISTRY_BREAKERS = /\bvi\.(mock|doMock|unmock|doUnmock|resetModules)\s*\(/;

describe('server tests share their workers safely', () => {
  it('finds the files it checks, and would catch a module mock', () => {
    expect(testFiles(TEST_DIR).length).toBeGreaterThan(40);
    expect(SHARED_REGISTRY_BREAKERS.test("vi.mock('../src/x.ts')")).toBe(true);
    expect(SHARED_REGISTRY_BREAKERS.test('vi.fn(check)')).toBe(false);
  });

  it('no server test replaces a module or resets the module registry', () => {
    // This file names the calls it looks for, so it (and a copy of it, scripts/suite-at-scale.ts) is left out.
    const offenders = testFiles(TEST_DIR)
      .filter((file) => !path.basename(file).startsWith('test-isolation'))
      .filter((file) => SHARED_REGISTRY_BREAKERS.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(TEST_DIR, file));
    expect(offenders).toEqual([]);
  });
});
