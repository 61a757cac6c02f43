import { requestJson } from './client.ts';

export type Bundle = Record<string, string>;
export type BundleName = 'PortalLabels' | 'Messages';

/** `GET /sdportal/portalstatic/assets/i18n/{locale}/{name}.json`: flat key → text. */
export async function getBundle(locale: string, name: BundleName, signal?: AbortSignal): Promise<Bundle> {
  const raw = await requestJson<unknown>(
    `/sdportal/portalstatic/assets/i18n/${encodeURIComponent(locale)}/${name}.json`,
    { signal },
  );
  const bundle: Bundle = {};
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw)) if (typeof value === 'string') bundle[key] = value;
  }
  return bundle;
}
