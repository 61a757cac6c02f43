import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  APP_TEXT_NAMESPACES,
  type AppTextNamespace,
  DEFAULT_LOCALE,
  type Locale,
  PLURAL_SUFFIX,
  SUPPORTED_LOCALES,
  textNamespaceOf,
} from '@cardportal/domain';

export const BUNDLE_NAMES = ['PortalLabels', 'Messages'] as const;
export type BundleName = (typeof BUNDLE_NAMES)[number];

interface LoadedBundle {
  texts: Readonly<Record<string, string>>;
  body: string;
  etag: string;
}

const loaded = (texts: Record<string, string>): LoadedBundle => {
  const body = JSON.stringify(texts);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { texts: Object.freeze(texts), body, etag };
};

/**
 * `own` laid over `base`; a count sentence (`key_one`, `key_few`, ...) comes whole from one of them, so a
 * language never gets English plural forms its own rules do not have.
 */
function overlay(base: Record<string, string>, own: Record<string, string>): Record<string, string> {
  const ownFamilies = new Set(
    Object.keys(own)
      .filter((key) => PLURAL_SUFFIX.test(key))
      .map((key) => key.replace(PLURAL_SUFFIX, '')),
  );
  const texts: Record<string, string> = {};
  for (const [key, text] of Object.entries(base))
    if (!(PLURAL_SUFFIX.test(key) && ownFamilies.has(key.replace(PLURAL_SUFFIX, '')))) texts[key] = text;
  return Object.assign(texts, own);
}

/**
 * The text bundles of every supported locale. A locale's bundle is its own file laid over en_US, so a
 * key that is not yet translated shows in English rather than as a raw key. The application's namespaces
 * (docs/text.md) are cut from both bundles by key.
 *
 * Every file is read and checked at start (a broken bundle stops the start), but a locale's bundles are
 * built on its first use and then kept: a server holds the languages it serves, not all 23 (about 1.5 MB
 * of heap each: issue 19, idle memory). en_US, the fallback of every other, is built at once.
 */
export class TextBundles {
  private readonly bundles = new Map<string, LoadedBundle>();
  private readonly built = new Set<string>();

  constructor(private readonly dir: string) {
    for (const locale of SUPPORTED_LOCALES) for (const name of BUNDLE_NAMES) readBundle(dir, locale, name);
    this.build(DEFAULT_LOCALE);
  }

  /** Builds a supported locale's bundles and namespaces once. */
  private build(locale: string): void {
    if (this.built.has(locale) || !(SUPPORTED_LOCALES as readonly string[]).includes(locale)) return;
    for (const name of BUNDLE_NAMES) {
      const base =
        locale === DEFAULT_LOCALE
          ? {}
          : (this.bundles.get(`${DEFAULT_LOCALE}/${name}`)?.texts as Record<string, string>);
      const own = readBundle(this.dir, locale, name) ?? {};
      this.bundles.set(`${locale}/${name}`, loaded(locale === DEFAULT_LOCALE ? own : overlay(base, own)));
    }
    const split = new Map<AppTextNamespace, Record<string, string>>(
      APP_TEXT_NAMESPACES.map((namespace) => [namespace, {}]),
    );
    for (const name of BUNDLE_NAMES)
      for (const [key, text] of Object.entries(this.bundles.get(`${locale}/${name}`)?.texts ?? {})) {
        const namespace = textNamespaceOf(key);
        if (namespace) (split.get(namespace) as Record<string, string>)[key] = text;
      }
    for (const [namespace, texts] of split) this.bundles.set(`${locale}/app:${namespace}`, loaded(texts));
    this.built.add(locale);
  }

  /** One namespace of the application's texts (`shell`, `people`, ...). */
  namespace(locale: Locale, namespace: AppTextNamespace): LoadedBundle {
    this.build(locale);
    const bundle =
      this.bundles.get(`${locale}/app:${namespace}`) ??
      this.bundles.get(`${DEFAULT_LOCALE}/app:${namespace}`);
    if (!bundle) throw new Error(`text namespace ${namespace} missing`);
    return bundle;
  }

  get(locale: Locale, name: BundleName): LoadedBundle {
    this.build(locale);
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
