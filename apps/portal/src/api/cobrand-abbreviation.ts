import { cached } from '../lib/cache.ts';
import { requestText } from './client.ts';

/** `GET /sdportal/rest/cobrandhostabbreviation?cobrandAbbr=`: the co-brand name for an abbreviation, cached 15 minutes. */
export function getCobrandNameByAbbreviation(abbreviation: string, signal?: AbortSignal): Promise<string> {
  return cached(`abbr.${abbreviation}`, async () =>
    (
      await requestText(
        `/sdportal/rest/cobrandhostabbreviation?${new URLSearchParams({ cobrandAbbr: abbreviation })}`,
        { signal },
      )
    ).trim(),
  );
}
