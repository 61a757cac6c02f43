import { useEffect, useState } from 'react';
import { firstExistingAsset } from '../api/asset-exists.ts';

/**
 * The first of `candidates` that exists on the server (HEAD, spec §7): undefined while asking,
 * null when none does. `known` (not undefined) is the answer the server already gave in the boot
 * data: it is used as is, without asking.
 */
export function useFirstExistingAsset(
  cacheKey: string,
  candidates: readonly string[],
  known?: string | null,
): string | null | undefined {
  const [found, setFound] = useState<string | null | undefined>(known);
  const joined = candidates.join('\n');
  useEffect(() => {
    if (known !== undefined) return;
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
  }, [cacheKey, joined, known]);
  return found;
}
