import {
  type CobrandRecord,
  cobrandText,
  DEFAULT_COBRAND,
  DEFAULT_LOCALE,
  isSupportedLocale,
  isUsableLocaleCookie,
  type Locale,
  resolveLocale,
  toLanguageTag,
} from '@cardportal/domain';
import { applyTheme } from '@cardportal/ui';
import { ApiError } from '../api/client.ts';
import { getCobrand } from '../api/cobrand.ts';
import { getCobrandNameByAbbreviation } from '../api/cobrand-abbreviation.ts';
import { getCobrandLocales, type LocaleMap } from '../api/cobrand-locales.ts';
import { logErrorStatement } from '../api/log-error.ts';
import { createTranslate, loadTranslate } from '../i18n/i18n.ts';
import { browser } from '../lib/browser.ts';
import { LOCALE_COOKIE, readCookie, writeCookie } from '../lib/cookies.ts';
import { COBRAND_KEY, sessionGet, sessionSet } from '../lib/storage.ts';
import { isAllowedExternalTarget } from '../lib/urls.ts';
import { type BootData, portalFromBootData } from './boot-data.ts';
import type { Portal } from './portal-context.tsx';

/** Same shape as the domain's cobrandNameSchema (kept zod-free for the page budget). */
const COBRAND_NAME = /^[a-z0-9][a-z0-9-]{1,39}$/;
const ABBREVIATION = /^[a-z0-9]{2,8}$/;
/** Session storage key remembering the co-brand:locale the locale rule last reloaded for. */
export const LOCALE_RELOAD_GUARD = 'cp.localeReload';

function validName(value: string | null | undefined): string | undefined {
  const name = value?.trim().toLowerCase();
  return name && COBRAND_NAME.test(name) ? name : undefined;
}

/** Spec §1: query cobrandHost → session storage COBRAND → the built-in default. */
export function chooseCobrandName(query: URLSearchParams): string {
  return validName(query.get('cobrandHost')) ?? validName(sessionGet(COBRAND_KEY)) ?? DEFAULT_COBRAND;
}

export interface LoadedCobrand {
  name: string;
  record: CobrandRecord | null;
  locales: LocaleMap;
}

async function tryLoad(name: string): Promise<LoadedCobrand> {
  const [record, locales] = await Promise.all([
    getCobrand(name),
    getCobrandLocales(name).catch((): LocaleMap => ({})),
  ]);
  return { name: record.name || name, record, locales };
}

/**
 * Loads the co-brand record and its locale map. An unknown name (404) may be a co-brand abbreviation
 * (resolved through cobrandhostabbreviation); otherwise the default co-brand is used. If even that
 * fails, the portal runs with no record (plain defaults).
 */
export async function loadCobrand(name: string): Promise<LoadedCobrand> {
  try {
    return await tryLoad(name);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) {
      void logErrorStatement(
        `portal: co-brand lookup failed (${error instanceof ApiError ? error.status : 'error'})`,
      );
    }
  }
  if (ABBREVIATION.test(name)) {
    try {
      const resolved = validName(await getCobrandNameByAbbreviation(name));
      if (resolved && resolved !== name) return await tryLoad(resolved);
    } catch {
      // not an abbreviation either
    }
  }
  if (name !== DEFAULT_COBRAND) {
    try {
      return await tryLoad(DEFAULT_COBRAND);
    } catch {
      // fall through
    }
  }
  return { name: DEFAULT_COBRAND, record: null, locales: {} };
}

/** Where a co-brand with federated SSO sends the sign-in page, if anywhere. */
export function fssoRedirectTarget(record: CobrandRecord | null): string | undefined {
  const target = record?.fssoRedirectUrl;
  return isAllowedExternalTarget(target) ? target : undefined;
}

/**
 * Spec §4/§5 locale rule: the `locale` query, else the `user_locale` cookie, mapped to one of the
 * co-brand's languages. Returns whether the sign-in page must reload because the cookie was missing
 * or not among the co-brand's languages (it is then rewritten). A reload happens at most once per
 * co-brand:locale pair in a tab, and only if the cookie could actually be written — no reload loop.
 */
export function selectLocale(
  query: URLSearchParams,
  cobrandName: string,
  locales: LocaleMap,
  isSigninScreen: boolean,
): { locale: Locale; reload: boolean } {
  const offered = Object.keys(locales).filter(isSupportedLocale);
  const cookie = readCookie(LOCALE_COOKIE);
  const locale = resolveLocale(query.get('locale') ?? cookie, offered);
  const cookieUsable = isUsableLocaleCookie(cookie, offered);
  if (!isSigninScreen || cookieUsable) return { locale, reload: false };
  writeCookie(LOCALE_COOKIE, locale);
  const guard = `${cobrandName}:${locale}`;
  if (readCookie(LOCALE_COOKIE) !== locale || sessionGet(LOCALE_RELOAD_GUARD) === guard) {
    return { locale, reload: false };
  }
  sessionSet(LOCALE_RELOAD_GUARD, guard);
  return { locale, reload: true };
}

export type Bootstrap =
  | {
      kind: 'ready';
      portal: Portal;
      /** The portal is exactly the one the server rendered from the boot data: hydrate, don't render. */
      fromBootData: boolean;
    }
  | { kind: 'leaving' };

/**
 * Everything fixed for one page load, before the first render: co-brand, SSO redirect, locale (and
 * its one-time reload), text bundles, theme and <html lang>. With boot data embedded by the server
 * (issue 6) for the co-brand this page asks for, nothing is fetched: the same rules run over it, and
 * where they would end elsewhere (another locale) the bundles are fetched as usual.
 */
export async function bootstrap(isSigninScreen: boolean, bootData?: BootData): Promise<Bootstrap> {
  const query = new URLSearchParams(window.location.search);
  const requested = chooseCobrandName(query);
  const embedded = bootData && bootData.requested === requested ? bootData : undefined;
  const cobrand: LoadedCobrand = embedded
    ? { name: embedded.cobrandName, record: embedded.record, locales: embedded.locales }
    : await loadCobrand(requested);
  sessionSet(COBRAND_KEY, cobrand.name);

  const sso = isSigninScreen ? fssoRedirectTarget(cobrand.record) : undefined;
  if (sso) {
    browser.assign(sso);
    return { kind: 'leaving' };
  }

  const { locale, reload } = selectLocale(query, cobrand.name, cobrand.locales, isSigninScreen);
  if (reload) {
    browser.reload();
    return { kind: 'leaving' };
  }

  const root = document.documentElement;
  root.lang = toLanguageTag(locale);
  applyTheme(cobrand.record?.theme, root);
  if (embedded && embedded.locale === locale) {
    return { kind: 'ready', portal: portalFromBootData(embedded), fromBootData: true };
  }
  const t = await loadTranslate(locale);
  return {
    kind: 'ready',
    fromBootData: false,
    portal: {
      cobrandName: cobrand.name,
      cobrand: cobrand.record,
      locale,
      locales: cobrand.locales,
      t,
      appName: cobrandText(cobrand.record, locale, 'appName') || t('common.defaultAppName'),
      ...(embedded ? { assets: { logo: embedded.logo, footerLogo: embedded.footerLogo } } : {}),
    },
  };
}

/** What the portal runs with when bootstrapping itself failed unexpectedly. */
export function fallbackPortal(): Portal {
  return {
    cobrandName: DEFAULT_COBRAND,
    cobrand: null,
    locale: DEFAULT_LOCALE,
    locales: {},
    t: createTranslate({}, {}),
    appName: '',
  };
}
