/**
 * The smoke version of every benchmark, run by `npm test`: tiny counts, the same code paths. Budgets
 * are not asserted here (that is `npm run bench -- --check`); correctness is: every section reports
 * its figures and budgets, and no sign-in under load fails.
 */
import { describe, expect, it } from 'vitest';
import { runBenchmarks } from './run.ts';

describe('benchmarks, smoke version', () => {
  it('runs every benchmark against the production build and reports each figure', async () => {
    const report = await runBenchmarks('smoke');
    expect(report.bound.perSecond).toBeGreaterThan(0);
    expect(report.sections.map((s) => s.name)).toEqual([
      'page',
      'public',
      'signin-embedded',
      'signin-postgres',
      'signin-peer',
      'signin-workers',
      'scale',
      'paging',
      'import',
      'summary',
      'accounting',
      'expenses',
    ]);
    for (const section of report.sections) {
      expect(section.table.length, section.name).toBeGreaterThan(0);
      expect(section.budgets.length, section.name).toBeGreaterThan(0);
      for (const b of section.budgets) expect(b.detail, `${section.name}: ${b.name}`).not.toBe('');
    }
    for (const mode of ['signin-embedded', 'signin-postgres']) {
      const section = report.sections.find((s) => s.name === mode);
      const figures = section?.figures as { peakPerSecond: number; memoryMb: { idle: number } };
      expect(figures.peakPerSecond, mode).toBeGreaterThan(0);
      expect(figures.memoryMb.idle, mode).toBeGreaterThan(0);
      const failures = section?.budgets.find((b) => b.name.startsWith('no failed sign-in'));
      expect(failures?.ok, `${mode}: ${failures?.detail}`).toBe(true);
    }
    // The peer (better-auth) and the two-worker server answered every sign-in too.
    for (const mode of ['signin-peer', 'signin-workers']) {
      const failures = report.sections
        .find((s) => s.name === mode)
        ?.budgets.find((b) => b.name.startsWith('no failed sign-in'));
      expect(failures?.ok, `${mode}: ${failures?.detail}`).toBe(true);
    }
    const page = report.sections.find((s) => s.name === 'page')?.figures as Record<string, unknown>;
    expect(JSON.stringify(page)).toMatch(/lcp/i);
  }, 600_000);
});
