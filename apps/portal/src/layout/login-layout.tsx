import type { ReactNode } from 'react';
import { usePortal } from '../app/portal-context.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';

/** The shared login layout (spec §2): skip link, co-brand header, one <main>, co-brand footer. */
export function LoginLayout({
  languageSelector,
  children,
}: {
  languageSelector: boolean;
  children: ReactNode;
}) {
  const { t } = usePortal();
  return (
    <div className="cp-page">
      <a className="cp-skip-link" href="#main">
        {t('common.skipToMain') || 'common.skipToMain'}
      </a>
      <Header languageSelector={languageSelector} />
      <main id="main" className="cp-main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  );
}
