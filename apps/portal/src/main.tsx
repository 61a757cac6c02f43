import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { bootstrap, fallbackPortal } from './app/bootstrap.ts';
import { resolveRoute } from './app/routes.tsx';
import '@cardportal/ui/ui.css';
import './styles.css';

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) return;
  const isSignin = resolveRoute(window.location.pathname).name === 'signin';
  let portal = fallbackPortal();
  try {
    const result = await bootstrap(isSignin);
    if (result.kind === 'leaving') return;
    portal = result.portal;
  } catch {
    // render with plain defaults: the form stays usable
  }
  createRoot(container).render(
    <StrictMode>
      <App portal={portal} />
    </StrictMode>,
  );
}

void start();
