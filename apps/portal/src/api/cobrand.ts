import type { CobrandRecord } from '@cardportal/domain';
import { cached } from '../lib/cache.ts';
import { requestJson } from './client.ts';

/** `GET /sdportal/rest/cobrand/{name}`: the co-brand record, cached 15 minutes. */
export function getCobrand(name: string, signal?: AbortSignal): Promise<CobrandRecord> {
  return cached(`cobrand.${name}`, () =>
    requestJson<CobrandRecord>(`/sdportal/rest/cobrand/${encodeURIComponent(name)}`, { signal }),
  );
}
