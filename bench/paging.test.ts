/**
 * The smoke version of the paging benchmark (bench/paging.ts): a few thousand audit events, the same
 * code. Budgets of speed are not asserted here (`npm run bench -- --only=paging --check` does); that the
 * deep page by key is exactly the page OFFSET finds there is.
 */
import { describe, expect, it } from 'vitest';
import { pagingBench } from './paging.ts';

describe('paging benchmark, smoke version', () => {
  it('pages deep by key through the product repository and reports every figure', async () => {
    const section = await pagingBench('smoke');
    expect(section.name).toBe('paging');
    expect(section.figures.sameRows).toBe(true);
    const ms = section.figures.ms as Record<string, { p50: number }>;
    for (const run of ['first', 'deep', 'deepBack', 'byOffset', 'countAll', 'capped'])
      expect(ms[run]?.p50, run).toBeGreaterThan(0);
    expect(section.budgets).toHaveLength(3);
    for (const b of section.budgets) expect(b.detail, b.name).not.toBe('');
  }, 120_000);
});
