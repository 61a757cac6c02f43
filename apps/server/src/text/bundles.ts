import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_LOCALE, type Locale, SUPPORTED_LOCALES } from '@cardportal/domain';

export const BUNDLE_NAMES = ['PortalLabels', 'Messages'] as const;
export type BundleName = (typeof BUNDLE_NAMES)[number];

interface LoadedBundle {
  texts: Readonly<Record<string, string>>;
  body: string;
  etag: string;
}

/**
 * The text bundles of every supported locale, loaded once. A locale's bundle is its own file laid over
 * en_US, so a key that is not yet translated shows in English rather than as a raw key.
 */
export class TextBundles {
  private readonly bundles = new Map<string, LoadedBundle>();

  constructor(dir: string) {
    for (const name of BUNDLE_NAMES) {
      const base = readBundle(dir, DEFAULT_LOCALE, name) ?? {};
      for (const locale of SUPPORTED_LOCALES) {
        const own = locale === DEFAULT_LOCALE ? {} : (readBundle(dir, locale, name) ?? {});
        const texts = Object.freeze({ ...base, ...own });
        const body = JSON.stringify(texts);
        const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
        this.bundles.set(`${locale}/${name}`, { texts, body, etag });
      }
    }
  }

  get(locale: Locale, name: BundleName): LoadedBundle {
    const bundle = this.bundles.get(`${locale}/${name}`) ?? this.bundles.get(`${DEFAULT_LOCALE}/${name}`);
    if (!bundle) throw new Error(`bundle ${name} missing`);
    return bundle;
  }

  /** One text, with `{0}`, `{1}` ... replaced. */
  text(locale: Locale, name: BundleName, key: string, ...args: string[]): string {
    const template = this.get(locale, name).texts[key] ?? this.get(DEFAULT_LOCALE, name).texts[key] ?? '';
    return template.replace(/\{(\d+)\}/g, (match, i: string) => args[Number(i)] ?? match);
  }
}

function readBundle(dir: string, locale: string, name: BundleName): Record<string, string> | undefined {
  const file = path.join(dir, locale, `${name}.json`);
  if (!existsSync(file)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`${file}: not a JSON object`);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new Error(`${file}: ${key} is not a string`);
    out[key] = value;
  }
  return out;
}
