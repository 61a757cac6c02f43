import { type CobrandRecord, cobrandText, isSupportedLocale, type Locale } from '@cardportal/domain';
import type { LocaleMap } from '../api/cobrand-locales.ts';
import type { Bundle } from '../api/i18n-bundle.ts';
import { createTranslate } from '../i18n/i18n.ts';
import type { Portal } from './portal-context.tsx';

/** Id of the `<script type="application/json">` the server embeds the boot data in (issue 6). */
export const BOOT_DATA_ID = 'cp-boot';
/** Bumped when the shape changes: the client ignores data of another version (and fetches). */
export const BOOT_DATA_VERSION = 1;

/**
 * What the portal's bootstrap would fetch before its first render, worked out by the server with the
 * same rules and embedded in the page as non-executable JSON, so the sign-in screen can be rendered
 * on the server and hydrated without a single extra request. apps/server's portal routes write it
 * (their `BootData` mirrors this shape; the server never imports the portal's source).
 */
export interface BootData {
  v: number;
  /** The co-brand name the page asked for (its `cobrandHost`), before any fallback. */
  requested: string;
  /** The co-brand in use after the fallbacks (abbreviation, default). */
  cobrandName: string;
  record: CobrandRecord | null;
  locales: LocaleMap;
  locale: Locale;
  labels: Bundle;
  messages: Bundle;
  /** The first existing logo / footer logo (what the HEAD probes would find), or null. */
  logo: string | null;
  footerLogo: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringMap = (value: unknown): value is Record<string, string> =>
  isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
const isPathOrNull = (value: unknown): value is string | null =>
  value === null || (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//'));

/** Checks the shape of parsed boot data; anything else is ignored (the portal then fetches). */
export function parseBootData(value: unknown): BootData | undefined {
  if (!isRecord(value) || value.v !== BOOT_DATA_VERSION) return undefined;
  const ok =
    typeof value.requested === 'string' &&
    typeof value.cobrandName === 'string' &&
    typeof value.locale === 'string' &&
    isSupportedLocale(value.locale) &&
    (value.record === null || isRecord(value.record)) &&
    isStringMap(value.locales) &&
    isStringMap(value.labels) &&
    isStringMap(value.messages) &&
    isPathOrNull(value.logo) &&
    isPathOrNull(value.footerLogo);
  return ok ? (value as unknown as BootData) : undefined;
}

/** The boot data embedded in this page, if any. */
export function readBootData(doc: Document = document): BootData | undefined {
  const text = doc.getElementById(BOOT_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    return parseBootData(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * The Portal of a page load from boot data: the one function both the server render and the client's
 * hydration use, so both render the same tree.
 */
export function portalFromBootData(data: BootData): Portal {
  const t = createTranslate(data.labels, data.messages);
  return {
    cobrandName: data.cobrandName,
    cobrand: data.record,
    locale: data.locale,
    locales: data.locales,
    t,
    appName: cobrandText(data.record, data.locale, 'appName') || t('common.defaultAppName'),
    assets: { logo: data.logo, footerLogo: data.footerLogo },
  };
}
