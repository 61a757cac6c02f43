import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerRender } from '../src/modules/portal/server-render.ts';
import { startTestApp, TestClient, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const portalIndex = path.resolve(import.meta.dirname, '../../portal/dist/index.html');
const portalRender = path.resolve(import.meta.dirname, '../../portal/dist/server/entry-server.js');

const preloads = (link: unknown): string[] =>
  String(link ?? '')
    .split(',')
    .filter((part) => part.includes('rel=preload'))
    .map((part) => /<([^>]+)>/.exec(part)?.[1] ?? '');

const localeCookie = (res: { cookies: unknown }) =>
  (
    res.cookies as { name: string; value: string; httpOnly?: boolean; path?: string; sameSite?: string }[]
  ).find((c) => c.name === 'user_locale');

interface Boot {
  v: number;
  requested: string;
  cobrandName: string;
  record: Record<string, unknown> | null;
  locales: Record<string, string>;
  locale: string;
  labels: Record<string, string>;
  messages: Record<string, string>;
  logo: string | null;
  footerLogo: string | null;
}

/** The boot data embedded in a page (issue 6), if any. */
const bootOf = (html: string): Boot | undefined => {
  const json = /<script type="application\/json" id="cp-boot">([^<]*)<\/script>/.exec(html)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as Boot);
};
/** The server-rendered markup of #root ('' when the client renders alone). */
const ssrOf = (html: string): string =>
  /<div id="root" data-ssr="">([\s\S]*?)<\/div>\s*<script type="application\/json"/.exec(html)?.[1] ?? '';

// Page speed (issue 6): the sign-in page arrives rendered, with what the portal's bootstrap would
// otherwise fetch embedded, and the locale cookie it would otherwise reload for.
describe('portal pages: server render, boot data and the locale cookie', () => {
  beforeAll(() => {
    // The pages are the built portal's: npm test builds before it tests.
    for (const file of [portalIndex, portalRender]) {
      if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
    }
  });

  it('renders sign-in on the server, with its texts, title, lang, theme and the data to hydrate from', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    expect(res.statusCode).toBe(200);
    const html = res.body;
    const markup = ssrOf(html);
    for (const id of ['userId', 'password', 'signin-submit', 'signin-error', 'locale-select']) {
      expect(markup).toContain(`id="${id}"`);
    }
    const boot = bootOf(html);
    expect(boot).toMatchObject({ v: 1, requested: 'banconorte', cobrandName: 'banconorte', locale: 'es' });
    expect(boot?.record?.name).toBe('banconorte');
    const labels = ctx.app.texts.get('es', 'PortalLabels').texts;
    expect(boot?.labels).toEqual(labels);
    expect(markup).toContain(`>${labels['signin.userId.label']}</label>`);
    expect(html).toContain('<html lang="es">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    // no JSON preloads (the data is in the page); the stylesheets are preloaded from the headers
    const links = preloads(res.headers.link);
    expect(links.some((l) => l.includes('/sdportal/rest/'))).toBe(false);
    expect(links.some((l) => /\/assets\/index-[\w-]+\.css$/.test(l))).toBe(true);
    const theme = links.find((l) => l.includes('/theme/'));
    expect(theme).toMatch(/^\/sdportal\/portalstatic\/theme\/banconorte\.css\?v=/);
    expect(html).toContain(`<link rel="stylesheet" href="${theme}">`);
    const css = await new TestClient(ctx.app).get(theme ?? '');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toMatch(/^:root:root\{--cp-primary:#[0-9a-f]{6};/i);
  });

  it('sends the page compressed when asked, and the same page', async () => {
    const client = new TestClient(ctx.app);
    const plain = await client.get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/sdportal/portalstatic/signin?cobrandHost=banconorte',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/);
    expect(brotliDecompressSync(res.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('shows the login error on ?invalidLogin=true already in the server render', async () => {
    const res = await new TestClient(ctx.app).get(
      '/sdportal/portalstatic/signin?cobrandHost=cardportal&invalidLogin=true',
    );
    const message = ctx.app.texts.text('en_US', 'Messages', 'signin.error.invalidLogin');
    expect(message).not.toBe('');
    expect(ssrOf(res.body)).toContain(message);
  });

  it('sets a missing locale cookie the way the portal would, so it need not reload', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    const cookie = localeCookie(res);
    expect(cookie).toMatchObject({ value: 'es', path: '/', sameSite: 'Lax' });
    expect(cookie?.httpOnly).toBeFalsy();

    const asked = await new TestClient(ctx.app).get(
      '/sdportal/portalstatic/signin?cobrandHost=banconorte&locale=pt',
    );
    expect(localeCookie(asked)?.value).toBe('pt');
    expect(bootOf(asked.body)?.locale).toBe('pt');
    expect(bootOf(asked.body)?.labels).toEqual(ctx.app.texts.get('pt', 'PortalLabels').texts);
  });

  it('rewrites a cookie the co-brand does not offer, and leaves a usable one alone', async () => {
    const client = new TestClient(ctx.app);
    client.cookies.set('user_locale', 'ja');
    const res = await client.get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    expect(localeCookie(res)?.value).toBe('es');

    const kept = new TestClient(ctx.app);
    kept.cookies.set('user_locale', 'pt');
    const again = await kept.get('/sdportal/portalstatic/signin?cobrandHost=banconorte');
    expect(localeCookie(again)).toBeUndefined();
    expect(bootOf(again.body)?.locale).toBe('pt');
    expect(again.body).toContain('<html lang="pt">');
  });

  it('follows an abbreviation and an unknown name to the co-brand the portal will use', async () => {
    const client = new TestClient(ctx.app);
    const abbreviated = bootOf((await client.get('/sdportal/portalstatic/signin?cobrandHost=bnc')).body);
    expect(abbreviated).toMatchObject({ requested: 'bnc', cobrandName: 'banconorte' });
    const unknown = bootOf((await client.get('/sdportal/portalstatic/signin?cobrandHost=nosuchbank')).body);
    expect(unknown).toMatchObject({ requested: 'nosuchbank', cobrandName: 'cardportal' });
  });

  it('embeds the logos the HEAD probes would find', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/portalstatic/signin?cobrandHost=cardportal');
    const boot = bootOf(res.body);
    expect(boot?.logo).toBe('/sdportal/portalstatic/assets/images/logos/cardportal.png');
    // on the logo plate of the co-brand's theme (issue 22: the logo is brand blue, so is the header)
    expect(ssrOf(res.body)).toContain(
      `<img class="cp-brand__logo cp-brand__logo--plate" src="${boot?.logo}"`,
    );
    // the co-brand record says the same, for a page without boot data: no probe, no 404 in the console
    const record = (boot?.record ?? {}) as { logoPath?: unknown; footerLogoPath?: unknown };
    expect(record.logoPath).toBe(boot?.logo);
    expect(record.footerLogoPath).toBe(boot?.footerLogo);
    for (const url of [boot?.logo, boot?.footerLogo].filter((u): u is string => Boolean(u))) {
      expect((await new TestClient(ctx.app).request({ method: 'HEAD', url })).statusCode, url).toBe(200);
    }
  });

  it('renders nothing without a valid cobrandHost (session storage may name another co-brand)', async () => {
    for (const query of ['', '?cobrandHost=%22%3E%3Cscript%3E']) {
      const res = await new TestClient(ctx.app).get(`/sdportal/portalstatic/signin${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.headers.link, query).toBeUndefined();
      expect(localeCookie(res), query).toBeUndefined();
      expect(bootOf(res.body), query).toBeUndefined();
      expect(res.body, query).toContain('<div id="root"></div>');
    }
  });

  it("does not render an SSO co-brand's sign-in, but embeds its record so it leaves at once", async () => {
    const res = await new TestClient(ctx.app).get(
      '/sdportal/portalstatic/signin?cobrandHost=harbour-federal',
    );
    expect(res.statusCode).toBe(200);
    expect(ssrOf(res.body)).toBe('');
    expect(res.body).toContain('<div id="root">');
    expect(res.body).not.toContain('id="userId"');
    expect(bootOf(res.body)?.record?.fssoRedirectUrl).toMatch(/^https:|^\//);
    expect(localeCookie(res)).toBeUndefined();
  });

  it('embeds the data on the other screens too, but renders and sets the cookie only on sign-in', async () => {
    const res = await new TestClient(ctx.app).get('/sdportal/portalstatic/otp?cobrandHost=banconorte');
    expect(bootOf(res.body)?.cobrandName).toBe('banconorte');
    expect(ssrOf(res.body)).toBe('');
    expect(res.body).not.toContain('id="userId"');
    expect(localeCookie(res)).toBeUndefined();
    const missing = await new TestClient(ctx.app).get(
      '/sdportal/portalstatic/nowhere?cobrandHost=banconorte',
    );
    expect(missing.statusCode).toBe(404);
    expect(ssrOf(missing.body)).toBe('');
  });

  it('keeps texts inert: </script> and <!-- can neither leave the JSON nor become markup', async () => {
    // The import and the repository refuse markup in a co-brand record (a record with it answers
    // 500, not a page); texts can still come from a text bundle. The render itself must hold
    // whatever it is given: fed directly here.
    const { render } = await ServerRender.load(path.dirname(portalIndex));
    if (!render) throw new Error('no server render');
    const demo = JSON.parse(
      readFileSync(path.join(import.meta.dirname, '../demo/cobrands.json'), 'utf8'),
    ) as Record<string, unknown>[];
    const evil = '</script><script>alert(1)</script><!--<script>';
    const record = {
      ...demo[1],
      appName: `Evil ${evil}`,
      signInToLabel: `Sign in ${evil}`,
      footerMessage: `Footer ${evil} \u2028 & "quotes" </SCRIPT >`,
      fssoRedirectUrl: null,
    };
    const labels = {
      ...ctx.app.texts.get('en_US', 'PortalLabels').texts,
      'signin.userId.label': `User ${evil}`,
    };
    const page = render.page('evil', {
      data: {
        v: render.bootDataVersion,
        requested: 'evilbank',
        cobrandName: 'evilbank',
        record,
        locales: { en_US: `English ${evil}`, de: 'Deutsch' },
        locale: 'en_US',
        labels,
        messages: ctx.app.texts.get('en_US', 'Messages').texts,
        logo: null,
        footerLogo: null,
      },
      signin: true,
      invalidLogin: false,
      langTag: 'en-US',
      themeHref: undefined,
    });
    const html = page.html;
    // Only the module script and the boot data are script elements; nothing else opens or closes one.
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain('<!--<');
    const boot = bootOf(html);
    expect(boot?.record?.appName).toBe(`Evil ${evil}`);
    expect(boot?.record?.footerMessage).toBe(`Footer ${evil} \u2028 & "quotes" </SCRIPT >`);
    expect(boot?.labels['signin.userId.label']).toBe(`User ${evil}`);
    // in the markup and the title, the texts are escaped text
    const markup = ssrOf(html);
    expect(markup).toContain(
      'Evil &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--&lt;script&gt;',
    );
    expect(markup).toContain('User &lt;/script&gt;');
    expect(html).toMatch(/<title>Sign in &lt;\/script&gt;/);
  });
});
