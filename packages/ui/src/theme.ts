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
  logoBackground: '--cp-logo-background',
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
  // A dark theme: cards, fields, secondary text and errors follow its background and text, so every
  // pair a co-brand validated (text on background, link on background) is the pair shown.
  if (
    theme.background &&
    COLOUR.test(theme.background) &&
    luminance(theme.background) < 0.2 &&
    theme.text &&
    COLOUR.test(theme.text)
  ) {
    root.style.setProperty('--cp-surface', theme.background);
    root.style.setProperty('--cp-muted', theme.text);
    root.style.setProperty('--cp-border', theme.text);
    root.style.setProperty('--cp-error', '#ffb4ab');
    root.style.setProperty('--cp-error-background', '#410e0b');
    if (theme.link && COLOUR.test(theme.link)) root.style.setProperty('--cp-focus', theme.link);
    root.style.setProperty('color-scheme', 'dark');
  }
}

/** WCAG relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}
