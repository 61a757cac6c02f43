import {
  type Cobrand,
  FOOTER_LOGO_BASE,
  LOCALE_NAMES,
  LOGO_BASE,
  LOGO_EXTENSIONS,
  toCobrandRecord,
} from '@cardportal/domain';
import type { Db, Executor } from '../../db/client.ts';
import { etagOf } from '../../http/cache.ts';
import {
  type CobrandAsset,
  existingAssetPaths,
  findAsset,
  findCobrand,
  findCobrandNameByAbbreviation,
} from './repository.ts';

/** How long one instance trusts its in-memory copy of a co-brand (they change rarely, by import). */
const CACHE_MS = 30_000;

interface Cached<T> {
  value: T;
  at: number;
}

export interface PublicCobrand {
  cobrand: Cobrand;
  body: string;
  etag: string;
  localesBody: string;
  localesEtag: string;
}

/** Co-brand lookups with a short per-instance cache, so public calls rarely touch the database. */
export class CobrandService {
  private readonly byName = new Map<string, Cached<PublicCobrand | null>>();
  private readonly byAbbr = new Map<string, Cached<string | null>>();
  private readonly assets = new Map<string, Cached<CobrandAsset | null>>();

  constructor(private readonly db: Db) {}

  /**
   * A co-brand by name. Inside a transaction pass it as `db`: on the embedded database (one connection)
   * a lookup outside the open transaction would wait for it to end, and it waits for the lookup.
   */
  async get(name: string, db: Executor = this.db): Promise<PublicCobrand | null> {
    const hit = this.byName.get(name);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
    const cobrand = await findCobrand(db, name);
    let value: PublicCobrand | null = null;
    if (cobrand) {
      // Serialised once per cache fill, with its ETag: the public calls only send bytes.
      // The logos that exist go along (issue 22): the portal then shows them without HEAD probes,
      // whose misses would be 404s in the browser's console.
      const body = JSON.stringify({ ...toCobrandRecord(cobrand), ...(await knownLogos(db, cobrand)) });
      const localesBody = JSON.stringify(
        Object.fromEntries(cobrand.locales.map((l) => [l, LOCALE_NAMES[l]])),
      );
      value = { cobrand, body, etag: etagOf(body), localesBody, localesEtag: etagOf(localesBody) };
    }
    this.remember(this.byName, name, value);
    return value;
  }

  async nameForAbbreviation(abbreviation: string): Promise<string | null> {
    const hit = this.byAbbr.get(abbreviation);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
    const value = (await findCobrandNameByAbbreviation(this.db, abbreviation)) ?? null;
    this.remember(this.byAbbr, abbreviation, value);
    return value;
  }

  async asset(assetPath: string): Promise<CobrandAsset | null> {
    const hit = this.assets.get(assetPath);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
    const value = (await findAsset(this.db, assetPath)) ?? null;
    this.remember(this.assets, assetPath, value);
    return value;
  }

  clear(): void {
    this.byName.clear();
    this.byAbbr.clear();
    this.assets.clear();
  }

  private remember<T>(map: Map<string, Cached<T>>, key: string, value: T): void {
    // Bounded: unknown names are remembered too (cheap 404s), so cap the map.
    if (map.size > 1000) map.clear();
    map.set(key, { value, at: Date.now() });
  }
}

/** The first existing header and footer logo of a co-brand, in the order of the portal's probes (spec §7). */
async function knownLogos(
  db: Executor,
  cobrand: Cobrand,
): Promise<{ logoPath: string | null; footerLogoPath: string | null }> {
  const logos = LOGO_EXTENSIONS.map((ext) => `${cobrand.name}.${ext}`);
  const footers = LOGO_EXTENSIONS.map((ext) => `${cobrand.abbreviation}.${ext}`);
  const found = await existingAssetPaths(db, [
    ...logos.map((file) => `logos/${file}`),
    ...footers.map((file) => `footers/${file}`),
  ]);
  const logo = logos.find((file) => found.has(`logos/${file}`));
  const footer = footers.find((file) => found.has(`footers/${file}`));
  return {
    logoPath: logo ? `${LOGO_BASE}${logo}` : null,
    footerLogoPath: footer ? `${FOOTER_LOGO_BASE}${footer}` : null,
  };
}
