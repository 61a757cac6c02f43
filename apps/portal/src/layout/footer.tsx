import { FOOTER_LOGO_BASE, LOGO_EXTENSIONS } from '@cardportal/domain';
import { usePortal } from '../app/portal-context.tsx';
import { isAllowedExternalTarget, relFor } from '../lib/urls.ts';
import { useFirstExistingAsset } from './use-first-existing-asset.ts';

/**
 * Data-driven co-brand footer: the record's footer links in order, its messages and the footer logo
 * of its abbreviation. Co-brand texts are always rendered as text, never as markup.
 */
export function Footer() {
  const { cobrand, appName, t, assets } = usePortal();
  const abbreviation = cobrand?.abbreviation ?? '';
  const logo = useFirstExistingAsset(
    `footer.${abbreviation}`,
    abbreviation ? LOGO_EXTENSIONS.map((ext) => `${FOOTER_LOGO_BASE}${abbreviation}.${ext}`) : [],
    assets ? assets.footerLogo : cobrand?.footerLogoPath,
  );
  // Only https URLs and our own paths become links, whatever the record holds (the import refuses the
  // rest; this holds for a record that bypassed it).
  const links = (cobrand?.footerLinks ?? []).filter((link) => isAllowedExternalTarget(link.url));
  const copyright = cobrand?.copyrightMessage || (appName ? t('footer.defaultCopyright', appName) : '');
  const linksLabel = t('footer.linksLabel');
  return (
    <footer className="cp-footer">
      <div className="cp-footer__inner">
        {links.length > 0 ? (
          <nav className="cp-footer__nav" aria-label={linksLabel || 'footer.linksLabel'}>
            <ul className="cp-footer__links">
              {links.map((link) => (
                <li key={`${link.key}-${link.url}`}>
                  <a href={link.url} rel={relFor(link.url)}>
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {cobrand?.footerMessage ? <p className="cp-footer__message">{cobrand.footerMessage}</p> : null}
        {copyright ? <p className="cp-footer__copyright">{copyright}</p> : null}
        {cobrand?.poweredBy || logo ? (
          <p className="cp-footer__powered">
            {logo ? <img className="cp-footer__logo" src={logo} alt={t('footer.logoAlt', appName)} /> : null}
            {cobrand?.poweredBy ? <span>{cobrand.poweredBy}</span> : null}
          </p>
        ) : null}
      </div>
    </footer>
  );
}
