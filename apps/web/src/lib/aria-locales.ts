/**
 * The languages whose react-aria strings (calendar, combo box, menu announcements) the build keeps
 * (vite.config.ts, @react-aria/optimize-locales-plugin): one per language of SUPPORTED_LOCALES, plus
 * English, react-aria's fallback for a language it does not translate (Indonesian). A test checks the
 * list against the domain's locales.
 */
export const ARIA_LANGUAGES = [
  'da',
  'de',
  'en',
  'es',
  'fi',
  'fr',
  'id',
  'it',
  'ja',
  'ko',
  'nb',
  'nl',
  'pl',
  'pt',
  'ru',
  'sv',
  'tr',
  'zh',
] as const;
