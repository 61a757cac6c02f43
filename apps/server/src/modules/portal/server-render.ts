import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';

/**
 * The portal's first screen rendered on the server (issue 6, page speed). The portal's build writes
 * dist/server/entry-server.js (apps/portal/src/entry-server.tsx); this module loads that artifact at
 * start-up — never the portal's source — and fills the built index.html with:
 *  - the boot data (co-brand record, languages, locale, both text bundles, logos) as non-executable
 *    JSON in `<script type="application/json">` (the CSP forbids inline scripts), escaped so no text
 *    can end the element;
 *  - on sign-in, the screen's markup in #root (marked `data-ssr`, which the client hydrates), its
 *    <title> and <html lang>;
 *  - the co-brand theme as a stylesheet link (inline styles are forbidden by the CSP too).
 */

/** Mirrors apps/portal/src/app/boot-data.ts `BootData` (the JSON contract between the two). */
export interface BootData {
  v: number;
  requested: string;
  cobrandName: string;
  record: unknown;
  locales: Record<string, string>;
  locale: string;
  labels: Record<string, string>;
  messages: Record<string, string>;
  logo: string | null;
  footerLogo: string | null;
}

interface RenderModule {
  renderSignin(
    data: BootData,
    location: { pathname: string; search: string },
  ): { html: string; title: string };
  themeCss(theme: unknown): string;
  BOOT_DATA_ID: string;
  BOOT_DATA_VERSION: number;
}

/** One finished page, kept compressed for the next visitor with the same inputs. */
export interface RenderedPage {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

const MARKERS = {
  lang: '<html lang="en-US">',
  title: '<title></title>',
  headEnd: '</head>',
  root: '<div id="root"></div>',
} as const;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * JSON for the inside of a `<script type="application/json">`: no `<` or `>` at all (so neither
 * `</script>` nor `<!--` can appear), `&` and the two JavaScript line separators escaped as well.
 * JSON.parse reads the escapes back to the same text.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${code}`;
  });
}

export interface PageInputs {
  data: BootData;
  /** Render the sign-in screen's markup (false: the data alone, the client renders). */
  signin: boolean;
  /** `?invalidLogin=true`: the screen opens with the login-failed error. */
  invalidLogin: boolean;
  langTag: string;
  /** The theme stylesheet URL, when the co-brand's theme sets anything. */
  themeHref: string | undefined;
}

export class ServerRender {
  private readonly pages = new Map<string, RenderedPage>();

  /**
   * `Link` preload values for the built stylesheets: sent with the page's headers, they start the one
   * render-blocking request when the headers arrive rather than when the parser reaches the <link>
   * (under slow 4G that is one HTML transfer earlier).
   */
  readonly stylesheetPreloads: string[];

  private constructor(
    private readonly module: RenderModule,
    private readonly template: string,
  ) {
    this.stylesheetPreloads = [
      ...template.matchAll(/<link rel="stylesheet"( crossorigin)? href="([^"]+)">/g),
    ].map(([, crossorigin, href]) => `<${href}>; rel=preload; as=style${crossorigin ? '; crossorigin' : ''}`);
  }

  /**
   * Loads the render artifact beside the built index.html; undefined (the portal is then rendered by
   * the client alone, as before) when either is missing or does not fit.
   */
  static async load(dist: string): Promise<{ render?: ServerRender; problem?: string }> {
    const indexFile = path.join(dist, 'index.html');
    const entry = path.join(dist, 'server', 'entry-server.js');
    if (!existsSync(indexFile) || !existsSync(entry)) return { problem: 'portal server render not built' };
    const template = readFileSync(indexFile, 'utf8');
    const missing = Object.values(MARKERS).filter((marker) => !template.includes(marker));
    if (missing.length > 0) return { problem: `index.html lacks ${missing.join(', ')}` };
    const loaded = (await import(pathToFileURL(entry).href)) as Partial<RenderModule>;
    if (
      typeof loaded.renderSignin !== 'function' ||
      typeof loaded.themeCss !== 'function' ||
      typeof loaded.BOOT_DATA_ID !== 'string' ||
      typeof loaded.BOOT_DATA_VERSION !== 'number'
    ) {
      return { problem: `${entry} does not export the server render` };
    }
    return { render: new ServerRender(loaded as RenderModule, template) };
  }

  get bootDataVersion(): number {
    return this.module.BOOT_DATA_VERSION;
  }

  themeCss(theme: unknown): string {
    return this.module.themeCss(theme);
  }

  /** Version tag of a theme stylesheet (changes when its content does). */
  static themeVersion(css: string): string {
    return createHash('sha256').update(css).digest('base64url').slice(0, 12);
  }

  /**
   * The page for these inputs, rendered and compressed once; later calls with the same inputs (the
   * same co-brand record, locale, logos and error flag) reuse it. `key` must identify the inputs.
   */
  page(key: string, inputs: PageInputs): RenderedPage {
    const hit = this.pages.get(key);
    if (hit) return hit;
    const html = this.fill(inputs);
    const page: RenderedPage = {
      html,
      br: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }),
      gzip: gzipSync(html, { level: 9 }),
    };
    if (this.pages.size >= 500) this.pages.clear(); // bounded: co-brands × locales × 2, in practice
    this.pages.set(key, page);
    return page;
  }

  private fill({ data, signin, invalidLogin, langTag, themeHref }: PageInputs): string {
    let root: string = MARKERS.root;
    let title: string = MARKERS.title;
    if (signin) {
      const rendered = this.module.renderSignin(data, {
        pathname: '/sdportal/portalstatic/signin',
        search: invalidLogin ? '?invalidLogin=true' : '',
      });
      // React puts resource hints (<link rel="preload">) before the markup; they are not part of
      // the tree the client hydrates, and the <img> they point at is in the markup anyway.
      const markup = rendered.html.replace(/^(?:<link [^>]*\/>)+/, '');
      root = `<div id="root" data-ssr="">${markup}</div>`;
      title = `<title>${escapeHtml(rendered.title)}</title>`;
    }
    const boot = `<script type="application/json" id="${this.module.BOOT_DATA_ID}">${jsonForScript(data)}</script>`;
    const theme = themeHref ? `<link rel="stylesheet" href="${escapeHtml(themeHref)}">\n  ` : '';
    return this.template
      .replace(MARKERS.lang, () => `<html lang="${escapeHtml(langTag)}">`)
      .replace(MARKERS.title, () => title)
      .replace(MARKERS.headEnd, () => `${theme}${MARKERS.headEnd}`)
      .replace(MARKERS.root, () => `${root}\n    ${boot}`);
  }
}
