import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cached } from './cache.ts';

beforeEach(() => sessionStorage.clear());

describe('cached', () => {
  it('keeps a value for the TTL, then reloads it', async () => {
    let now = 1_000;
    const load = vi.fn(async () => `v${load.mock.calls.length}`);
    expect(await cached('k', load, 100, () => now)).toBe('v1');
    now += 99;
    expect(await cached('k', load, 100, () => now)).toBe('v1');
    now += 1;
    expect(await cached('k', load, 100, () => now)).toBe('v2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not cache failures', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('ok');
    await expect(cached('f', load)).rejects.toThrow('down');
    expect(await cached('f', load)).toBe('ok');
  });

  it('reloads a corrupt entry', async () => {
    sessionStorage.setItem('cp.cache.c', '{not json');
    expect(await cached('c', async () => 7)).toBe(7);
  });
});
