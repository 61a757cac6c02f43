import { resolveLocale, toLanguageTag } from '@cardportal/domain';
import { applyTheme } from '@cardportal/ui';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadContext } from './lib/session.ts';
import { AppRoutes } from './routes.tsx';
import '@cardportal/ui/ui.css';
import './styles.css';

async function main(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) return;
  const context = await loadContext();
  if (!context) return; // on its way to the sign-in screen
  const languageTag = toLanguageTag(resolveLocale(context.user.locale));
  document.documentElement.lang = languageTag;
  applyTheme(context.cobrand?.theme, document.documentElement);
  createRoot(root).render(
    <StrictMode>
      <AppRoutes context={context} languageTag={languageTag} />
    </StrictMode>,
  );
}

void main();
