/** The 23 locales of the portal spec §3, in the spec's order. */
export const SUPPORTED_LOCALES = [
  'en_US',
  'da',
  'de',
  'en_GB',
  'es',
  'es_ES',
  'fi',
  'fr',
  'fr_CA',
  'in',
  'it',
  'ja',
  'ko',
  'nl',
  'no',
  'pl',
  'pt',
  'pt_PT',
  'ru',
  'sv',
  'tr',
  'zh_CN',
  'zh_TW',
] as const;

export type Locale = (typeof SUPPORTED_LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en_US';

const SUPPORTED = new Set<string>(SUPPORTED_LOCALES);

export function isSupportedLocale(value: unknown): value is Locale {
  return typeof value === 'string' && SUPPORTED.has(value);
}

/**
 * Normalises what a browser or a link may carry (`de-DE`, `en-us`, `pt_BR`, `id`) to a supported
 * locale code, or undefined when nothing matches.
 */
export function normaliseLocale(value: unknown): Locale | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 16) return undefined;
  if (!/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/.test(value)) return undefined;
  const [rawLang = '', rawRegion] = value.split(/[_-]/);
  let lang = rawLang.toLowerCase();
  if (lang === 'id') lang = 'in'; // Indonesian: the product keeps the legacy ISO 639 code
  if (lang === 'nb' || lang === 'nn') lang = 'no';
  const region = rawRegion?.toUpperCase();
  if (region) {
    const exact = `${lang}_${region}`;
    if (SUPPORTED.has(exact)) return exact as Locale;
  }
  if (SUPPORTED.has(lang)) return lang as Locale;
  if (lang === 'en') return 'en_US';
  if (lang === 'zh') return region === 'TW' || region === 'HK' || region === 'HANT' ? 'zh_TW' : 'zh_CN';
  return undefined;
}

/**
 * The locale mapping of the portal spec §5: a supported locale the co-brand offers, else the
 * co-brand's first language, else en_US.
 */
export function resolveLocale(requested: unknown, cobrandLocales: readonly string[] = []): Locale {
  const offered = cobrandLocales.filter(isSupportedLocale);
  const wanted = normaliseLocale(requested);
  if (wanted && (offered.length === 0 || offered.includes(wanted))) return wanted;
  return offered[0] ?? DEFAULT_LOCALE;
}

/**
 * Whether a `user_locale` cookie can stay as it is for a co-brand (spec §4/§5: else it is rewritten to
 * the locale chosen): a supported locale the co-brand offers, or the spec's default `en` (the cookie's
 * default value, read as en_US) where the co-brand offers en_US.
 */
export function isUsableLocaleCookie(cookie: unknown, cobrandLocales: readonly string[] = []): boolean {
  const locale = cookie === 'en' ? DEFAULT_LOCALE : cookie;
  if (!isSupportedLocale(locale)) return false;
  const offered = cobrandLocales.filter(isSupportedLocale);
  return offered.length === 0 || offered.includes(locale);
}

/** BCP 47 tag for `<html lang>` and Intl. */
export function toLanguageTag(locale: Locale): string {
  if (locale === 'in') return 'id';
  if (locale === 'no') return 'nb';
  return locale.replace('_', '-');
}

/** Each language in its own name, for the language selector (the co-brand's locale map). */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en_US: 'English (United States)',
  da: 'Dansk',
  de: 'Deutsch',
  en_GB: 'English (United Kingdom)',
  es: 'Español',
  es_ES: 'Español (España)',
  fi: 'Suomi',
  fr: 'Français',
  fr_CA: 'Français (Canada)',
  in: 'Bahasa Indonesia',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  nl: 'Nederlands',
  no: 'Norsk',
  pl: 'Polski',
  pt: 'Português',
  pt_PT: 'Português (Portugal)',
  ru: 'Русский',
  sv: 'Svenska',
  tr: 'Türkçe',
  zh_CN: '简体中文',
  zh_TW: '繁體中文',
};
