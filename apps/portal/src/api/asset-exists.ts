import { cached } from '../lib/cache.ts';
import { requestVoid } from './client.ts';

async function exists(url: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await requestVoid(url, { method: 'HEAD', signal });
    return true;
  } catch {
    return false;
  }
}

/**
 * Spec §7: HEAD each candidate (asked in parallel) and return the first, in the given order, that
 * exists, or null. The answer is cached 15 minutes like the other co-brand lookups.
 */
export function firstExistingAsset(
  cacheKey: string,
  candidates: readonly string[],
  signal?: AbortSignal,
): Promise<string | null> {
  return cached(`asset.${cacheKey}`, async () => {
    const found = await Promise.all(candidates.map((url) => exists(url, signal)));
    return candidates[found.indexOf(true)] ?? null;
  });
}
