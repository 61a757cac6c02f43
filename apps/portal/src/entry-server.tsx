/**
 * The portal's server render (issue 6, page speed), built by `vite build --ssr` into
 * dist/server/entry-server.js and loaded by apps/server's portal routes at start-up (the server never
 * imports this source). The sign-in screen is rendered to HTML from the boot data the server embeds
 * in the same page, and the client hydrates it from that same data (src/main.tsx), so both render the
 * same tree. No window here: the location comes in as an argument.
 */
import type { CobrandTheme } from '@cardportal/domain';
import { applyTheme } from '@cardportal/ui';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app/app.tsx';
import { type BootData, parseBootData, portalFromBootData } from './app/boot-data.ts';
import { withServerLocation } from './router/router.tsx';
import { signinHeading } from './screens/signin/signin-screen.tsx';

export { BOOT_DATA_ID, BOOT_DATA_VERSION } from './app/boot-data.ts';

export interface SigninRender {
  /** The markup of `#root`. */
  html: string;
  /** The document title the screen sets (its heading). */
  title: string;
}

/**
 * Renders the sign-in screen (path + query as given: `invalidLogin=true` shows the login error) for
 * one co-brand and locale. Throws on boot data of the wrong shape.
 */
export function renderSignin(data: BootData, location: { pathname: string; search: string }): SigninRender {
  const checked = parseBootData(data);
  if (!checked) throw new Error('renderSignin: boot data of an unexpected shape');
  const portal = portalFromBootData(checked);
  const html = withServerLocation(location, () =>
    renderToString(
      <StrictMode>
        <App portal={portal} />
      </StrictMode>,
    ),
  );
  return { html, title: signinHeading(portal) };
}

/**
 * The co-brand theme as a stylesheet: the same custom properties the client sets on <html> through
 * the CSSOM (applyTheme, same checks), so a server-rendered page is themed from its first paint
 * without an inline style (CSP). '' when the theme sets nothing.
 */
export function themeCss(theme: Partial<CobrandTheme> | null | undefined): string {
  const declarations: string[] = [];
  const collector = {
    style: {
      setProperty: (property: string, value: string) => {
        declarations.push(`${property}:${value}`);
      },
    },
  } as unknown as HTMLElement;
  applyTheme(theme, collector);
  // Two pseudo-classes: wins over styles.css's :root defaults wherever the sheets are linked.
  return declarations.length > 0 ? `:root:root{${declarations.join(';')}}\n` : '';
}
