/**
 * Everything but the timing comparisons and the benchmarks runs in one group of WORKERS workers
 * (docs/testing.md): a group shares one pool, and most of a test's time is waiting — on PostgreSQL, on a
 * product's answer, on Chromium — so more workers than cores keep both cores busy. Every project of the
 * group names the same count (vitest refuses a group whose projects differ).
 */
export const WORKERS = 4;
export const MAIN_GROUP = { groupOrder: 1 };
