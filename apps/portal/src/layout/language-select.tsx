import type { ChangeEvent } from 'react';
import { usePortal } from '../app/portal-context.tsx';
import { nameOr } from '../i18n/i18n.ts';
import { browser } from '../lib/browser.ts';
import { LOCALE_COOKIE, writeCookie } from '../lib/cookies.ts';

/** The URL of this page in another locale (a stale invalidLogin error is dropped). */
export function urlWithLocale(href: string, locale: string): string {
  const url = new URL(href);
  url.searchParams.set('locale', locale);
  url.searchParams.delete('invalidLogin');
  return url.pathname + url.search;
}

/**
 * Language selector: the co-brand's languages. Choosing one sets the user_locale cookie and the
 * locale query, and reloads (texts, co-brand data and <html lang> are fixed per page load).
 */
export function LanguageSelect() {
  const { t, locale, locales } = usePortal();
  const entries = Object.entries(locales);
  if (entries.length < 2) return null;
  const label = t('languageSelector.label');
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = event.target.value;
    if (!(next in locales) || next === locale) return;
    writeCookie(LOCALE_COOKIE, next);
    browser.assign(urlWithLocale(window.location.href, next));
  };
  return (
    <div className="cp-language">
      <label className="cp-language__label" htmlFor="locale-select">
        {label}
      </label>
      <select
        id="locale-select"
        className="cp-language__select"
        value={locale}
        onChange={onChange}
        aria-label={nameOr(label, 'languageSelector.label')}
      >
        {entries.map(([code, name]) => (
          <option key={code} value={code} lang={code.replace('_', '-')}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
