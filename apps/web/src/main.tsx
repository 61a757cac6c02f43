import { resolveLocale, toLanguageTag } from '@cardportal/domain';
import { applyTheme } from '@cardportal/ui';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { loadContext } from './lib/session.ts';
import { makeT } from './lib/text.ts';
import { HomeScreen } from './screens/home/home-screen.tsx';
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
  const t = makeT(context.texts);
  document.title = t('app.title', context.cobrand?.appName ?? '');
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter basename="/app">
        <Routes>
          <Route path="/" element={<HomeScreen context={context} languageTag={languageTag} />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </BrowserRouter>
    </StrictMode>,
  );
}

void main();
