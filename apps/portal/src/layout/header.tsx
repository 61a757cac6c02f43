import { LOGO_BASE, LOGO_EXTENSIONS } from '@cardportal/domain';
import { usePortal } from '../app/portal-context.tsx';
import { LanguageSelect } from './language-select.tsx';
import { useFirstExistingAsset } from './use-first-existing-asset.ts';

/** Co-brand header bar: the co-brand's logo (found by HEAD, spec §7), else its name as text. */
export function Header({ languageSelector }: { languageSelector: boolean }) {
  const { cobrandName, appName, assets } = usePortal();
  const logo = useFirstExistingAsset(
    `logo.${cobrandName}`,
    LOGO_EXTENSIONS.map((ext) => `${LOGO_BASE}${cobrandName}.${ext}`),
    assets?.logo,
  );
  return (
    <header className="cp-header">
      <div className="cp-header__inner">
        <div className="cp-brand">
          {logo ? (
            <img className="cp-brand__logo" src={logo} alt={appName} />
          ) : logo === null ? (
            <span className="cp-brand__name">{appName}</span>
          ) : null}
        </div>
        {languageSelector ? <LanguageSelect /> : null}
      </div>
    </header>
  );
}
