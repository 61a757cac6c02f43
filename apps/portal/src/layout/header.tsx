import { LOGO_BASE, LOGO_EXTENSIONS } from '@cardportal/domain';
import { usePortal } from '../app/portal-context.tsx';
import { LanguageSelect } from './language-select.tsx';
import { useFirstExistingAsset } from './use-first-existing-asset.ts';

/**
 * Co-brand header bar: the co-brand's logo (as the server knows it, else found by HEAD, spec §7), else
 * its name as text.
 */
export function Header({ languageSelector }: { languageSelector: boolean }) {
  const { cobrandName, appName, assets, cobrand } = usePortal();
  // The co-brand's logo plate (theme logoBackground, painted through --cp-logo-background).
  const plate = /^#[0-9a-fA-F]{6}$/.test(cobrand?.theme?.logoBackground ?? '');
  const logo = useFirstExistingAsset(
    `logo.${cobrandName}`,
    LOGO_EXTENSIONS.map((ext) => `${LOGO_BASE}${cobrandName}.${ext}`),
    // what the server already knows (boot data, else the co-brand record): no HEAD probe then
    assets ? assets.logo : cobrand?.logoPath,
  );
  return (
    <header className="cp-header">
      <div className="cp-header__inner">
        <div className="cp-brand">
          {logo ? (
            <img
              className={plate ? 'cp-brand__logo cp-brand__logo--plate' : 'cp-brand__logo'}
              src={logo}
              alt={appName}
            />
          ) : logo === null ? (
            <span className="cp-brand__name">{appName}</span>
          ) : null}
        </div>
        {languageSelector ? <LanguageSelect /> : null}
      </div>
    </header>
  );
}
