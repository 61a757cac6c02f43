import { useEffect, useState } from 'react';
import { firstExistingAsset } from '../api/asset-exists.ts';

/**
 * The first of `candidates` that exists on the server (HEAD, spec §7): undefined while asking,
 * null when none does.
 */
export function useFirstExistingAsset(
  cacheKey: string,
  candidates: readonly string[],
): string | null | undefined {
  const [found, setFound] = useState<string | null | undefined>(undefined);
  const joined = candidates.join('\n');
  useEffect(() => {
    const controller = new AbortController();
    const list = joined ? joined.split('\n') : [];
    if (list.length === 0) {
      setFound(null);
      return;
    }
    firstExistingAsset(cacheKey, list, controller.signal)
      .then((url) => {
        if (!controller.signal.aborted) setFound(url);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFound(null);
      });
    return () => controller.abort();
  }, [cacheKey, joined]);
  return found;
}
