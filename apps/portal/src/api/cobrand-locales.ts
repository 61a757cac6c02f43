import { cached } from '../lib/cache.ts';
import { requestJson } from './client.ts';

/** Locale code → display name, in the co-brand's order (first = its default). */
export type LocaleMap = Record<string, string>;

/** `GET /sdportal/rest/cobrands/{name}/locales`, cached 15 minutes. */
export function getCobrandLocales(name: string, signal?: AbortSignal): Promise<LocaleMap> {
  return cached(`locales.${name}`, () =>
    requestJson<LocaleMap>(`/sdportal/rest/cobrands/${encodeURIComponent(name)}/locales`, { signal }),
  );
}
