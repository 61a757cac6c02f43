import { type CobrandRecord, type Locale, type PortalScreen, portalUrl } from '@cardportal/domain';
import { createContext, useContext } from 'react';
import type { LocaleMap } from '../api/cobrand-locales.ts';
import type { Translate } from '../i18n/i18n.ts';

/** Everything a screen needs that is fixed for one page load (co-brand, locale, texts). */
export interface Portal {
  /** The co-brand in use (after fallbacks); kept on every link as cobrandHost. */
  cobrandName: string;
  /** null when even the default co-brand could not be loaded: the portal then shows plain defaults. */
  cobrand: CobrandRecord | null;
  locale: Locale;
  /** The co-brand's languages, code → display name, in its order. */
  locales: LocaleMap;
  t: Translate;
  /** The co-brand's application name, or the bundle's default name. */
  appName: string;
  /**
   * The logo and footer logo when the server already knows them (boot data): no HEAD probe then, and
   * the server-rendered page shows them at once. null = none exists.
   */
  assets?: { logo: string | null; footerLogo: string | null };
}

export const PortalContext = createContext<Portal | null>(null);

export function usePortal(): Portal {
  const portal = useContext(PortalContext);
  if (!portal) throw new Error('usePortal outside <PortalContext>');
  return portal;
}

/** URL of another portal screen, keeping cobrandHost and locale (DESIGN §4). */
export function screenUrl(portal: Pick<Portal, 'cobrandName' | 'locale'>, screen: PortalScreen): string {
  return portalUrl(screen, { cobrandHost: portal.cobrandName, locale: portal.locale });
}
