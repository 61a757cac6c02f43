import type { ReactNode } from 'react';
import { I18nProvider, RouterProvider } from 'react-aria-components';
import { type NavigateOptions, useHref, useNavigate } from 'react-router';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

/**
 * The react-aria context of the application: the user's language (date formats, calendars, the
 * direction of arrow keys in menus) and react-router for links inside menus and list boxes, so a
 * menu item with `href` navigates inside the application instead of reloading it.
 */
export function AriaProvider({ locale, children }: { locale: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <RouterProvider navigate={(to, options) => void navigate(to, options)} useHref={useHref}>
      <I18nProvider locale={locale}>{children}</I18nProvider>
    </RouterProvider>
  );
}
