import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { readBootData } from './app/boot-data.ts';
import { bootstrap, fallbackPortal } from './app/bootstrap.ts';
import type { Portal } from './app/portal-context.tsx';
import { resolveRoute } from './app/routes.tsx';
import '@cardportal/ui/ui.css';
import './styles.css';

/** Set on #root by the server when it holds a server-rendered screen (see apps/server portal routes). */
const SSR_ATTRIBUTE = 'data-ssr';

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) return;
  const isSignin = resolveRoute(window.location.pathname).name === 'signin';
  let portal: Portal = fallbackPortal();
  let hydrate = false;
  try {
    const result = await bootstrap(isSignin, readBootData());
    if (result.kind === 'leaving') return;
    portal = result.portal;
    hydrate = result.fromBootData && container.hasAttribute(SSR_ATTRIBUTE);
  } catch {
    // render with plain defaults: the form stays usable
  }
  const app = (
    <StrictMode>
      <App portal={portal} />
    </StrictMode>
  );
  if (hydrate) {
    // The server rendered this screen from the same boot data: take it over instead of redrawing it.
    hydrateRoot(container, app);
    return;
  }
  // Server markup for another co-brand or locale than the one chosen here (session storage, cookie):
  // drop it and render from scratch.
  container.removeAttribute(SSR_ATTRIBUTE);
  container.replaceChildren();
  createRoot(container).render(app);
}

void start();
