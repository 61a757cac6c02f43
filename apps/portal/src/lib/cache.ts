import { LIMITS } from '@cardportal/domain';
import { sessionGet, sessionRemove, sessionSet } from './storage.ts';

const PREFIX = 'cp.cache.';

interface Entry<T> {
  at: number;
  value: T;
}

/**
 * Returns the value cached under `key` in session storage when younger than `ttlMs`, else loads,
 * caches and returns it. Failures are not cached. Spec §7: co-brand lookups live 15 minutes.
 */
export async function cached<T>(
  key: string,
  load: () => Promise<T>,
  ttlMs: number = LIMITS.cobrandCacheMs,
  now: () => number = Date.now,
): Promise<T> {
  const raw = sessionGet(PREFIX + key);
  if (raw) {
    try {
      const entry = JSON.parse(raw) as Entry<T>;
      const age = now() - entry.at;
      if (typeof entry.at === 'number' && age >= 0 && age < ttlMs) return entry.value;
    } catch {
      // corrupt entry: reload
    }
    sessionRemove(PREFIX + key);
  }
  const value = await load();
  sessionSet(PREFIX + key, JSON.stringify({ at: now(), value } satisfies Entry<T>));
  return value;
}
