import {
  APP_TEXT_NAMESPACES,
  type AppTextNamespace,
  appTextFile,
  I18N_BASE,
  type Locale,
} from '@cardportal/domain';
import type messages from '@cardportal/i18n/bundles/en_US/Messages.json';
import type labels from '@cardportal/i18n/bundles/en_US/PortalLabels.json';
import type { BackendModule, i18n as I18n } from 'i18next';
import { getJson } from '../api/client.ts';

/**
 * The application's text layer (docs/text.md): i18next over the text bundles, split in namespaces that
 * load with their screens; keys typed from the en_US bundles; count sentences in CLDR plural forms.
 */

/** Every text of the en_US bundles, as the type the keys come from. */
export type EnglishTexts = typeof labels & typeof messages;
type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type AnyKey = Extract<keyof EnglishTexts, string>;
/** A text's key: a typo fails the type check. */
export type TextKey = Exclude<AnyKey, `${string}_${PluralCategory}`>;
/** A count sentence's key: the bundles hold it as `key_one`, `key_few`, ... by the language's CLDR rules. */
export type CountKey = AnyKey extends infer K
  ? K extends `${infer Family}_${PluralCategory}`
    ? Family
    : never
  : never;

/** The endings of the keys under a prefix: `KeySuffix<'app.people.done.'>` is `'saved' | 'created' | ...`. */
export type KeySuffix<Prefix extends string> = TextKey extends infer K
  ? K extends `${Prefix}${infer Suffix}`
    ? Suffix
    : never
  : never;

/** `t(key, ...args)`: `{0}`, `{1}` ... replaced; an absent key renders empty, never the key. */
export type T = (key: TextKey, ...args: string[]) => string;
/** `tCount(key, count, ...args)`: the plural form for `count`; `{0}` is the count (Intl), `{1}` ... args. */
export type TCount = (key: CountKey, count: number, ...args: string[]) => string;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'shell';
    keySeparator: false;
    nsSeparator: false;
    interpolationPrefix: '{';
    interpolationSuffix: '}';
    resources: { shell: EnglishTexts };
  }
}

/** The namespaces the application starts with: its frame, the home page and the multi-user gate. */
export const START_NAMESPACES: readonly AppTextNamespace[] = ['shell', 'home', 'multi-user'];

/** Reads a namespace from the server (`/sdportal/portalstatic/assets/i18n/{locale}/app-{namespace}.json`). */
function serverBackend(locale: Locale): BackendModule {
  return {
    type: 'backend',
    init() {},
    read(_language, namespace, callback) {
      getJson<Record<string, string>>(
        `${I18N_BASE}${encodeURIComponent(locale)}/${appTextFile(namespace as AppTextNamespace)}`,
      ).then(
        (texts) => callback(null, texts),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
      );
    },
  };
}

/** The instance options (tests build theirs from them too, with the texts given whole). */
export const textOptions = (languageTag: string, namespaces: readonly AppTextNamespace[]) => ({
  // i18next picks plural forms with Intl.PluralRules(languageTag): `pt-PT`, `nb`, `id`, `zh-TW` ...
  lng: languageTag,
  fallbackLng: false as const,
  load: 'currentOnly' as const,
  ns: [...namespaces],
  defaultNS: 'shell',
  // A key is looked up in every loaded namespace: keys are unique across them (they carry their prefix).
  fallbackNS: APP_TEXT_NAMESPACES.filter((n) => n !== 'shell'),
  keySeparator: false as const,
  nsSeparator: false as const,
  // The bundles' placeholders are `{0}`, `{1}` (the portal and the server's mails read them too).
  interpolation: { prefix: '{', suffix: '}', escapeValue: false, skipOnVariables: true },
  // An absent key renders empty, never as its key (problem texts fall through several keys).
  parseMissingKeyHandler: () => '',
  showSupportNotice: false,
});

let library: Promise<I18n> | undefined;

/**
 * i18next, in a chunk of its own fetched once: the application starts it beside its first API call
 * instead of carrying it in the entry script (docs/text.md).
 */
export function textLibrary(): Promise<I18n> {
  library ??= import('i18next').then((module) => module.default);
  return library;
}

/** The user's texts, read from the server: resolves when the start namespaces are in. */
export async function loadTexts(locale: Locale, languageTag: string): Promise<I18n> {
  const instance = (await textLibrary()).createInstance();
  instance.use(serverBackend(locale));
  await instance.init(textOptions(languageTag, START_NAMESPACES));
  return instance;
}

const loading = new WeakMap<I18n, Map<AppTextNamespace, Promise<void>>>();

/** Loads a namespace once (a screen's texts, before it renders); the same promise for every caller. */
export function loadNamespace(i18n: I18n, namespace: AppTextNamespace): Promise<void> {
  const byNamespace = loading.get(i18n) ?? new Map<AppTextNamespace, Promise<void>>();
  loading.set(i18n, byNamespace);
  let promise = byNamespace.get(namespace);
  if (!promise) {
    promise = i18n.hasLoadedNamespace(namespace) ? Promise.resolve() : i18n.loadNamespaces(namespace);
    byNamespace.set(namespace, promise);
  }
  return promise;
}

/** The `t` and `tCount` of an i18next instance; `raw` looks up a key only known at run time (a server code). */
export function makeT(
  i18n: I18n,
  languageTag: string,
): { t: T; tCount: TCount; raw: (key: string) => string } {
  const lookup = i18n.t as unknown as (key: string, options?: Record<string, unknown>) => string;
  const values = (args: readonly string[], first = 0) =>
    Object.fromEntries(args.map((arg, i) => [String(i + first), arg]));
  const number = new Intl.NumberFormat(languageTag);
  return {
    t: (key, ...args) => lookup(key, values(args)),
    tCount: (key, count, ...args) => lookup(key, { count, 0: number.format(count), ...values(args, 1) }),
    raw: (key) => lookup(key),
  };
}
