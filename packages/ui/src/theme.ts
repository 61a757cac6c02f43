import type { CobrandTheme } from '@cardportal/domain';

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** Theme field → CSS custom property read by styles.css (which holds the defaults). */
export const THEME_PROPERTIES: Record<keyof CobrandTheme, string> = {
  primary: '--cp-primary',
  onPrimary: '--cp-on-primary',
  background: '--cp-background',
  text: '--cp-text',
  link: '--cp-link',
  footerBackground: '--cp-footer-background',
  footerText: '--cp-footer-text',
  fontFamily: '--cp-font-family',
};

/**
 * Applies a co-brand theme as CSS custom properties on <html> through the CSSOM (allowed by a CSP
 * without 'unsafe-inline'). Values that are not colours / plain font lists are ignored.
 */
export function applyTheme(theme: Partial<CobrandTheme> | null | undefined, root: HTMLElement): void {
  if (!theme) return;
  for (const [field, property] of Object.entries(THEME_PROPERTIES) as [keyof CobrandTheme, string][]) {
    const value = theme[field];
    if (typeof value !== 'string') continue;
    const ok = field === 'fontFamily' ? /^[\w\s,'"-]{1,200}$/.test(value) : COLOUR.test(value);
    if (ok) root.style.setProperty(property, value);
  }
}
