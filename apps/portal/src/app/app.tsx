import { Suspense } from 'react';
import { LoginLayout } from '../layout/login-layout.tsx';
import { currentLocation, useLocationKey } from '../router/router.tsx';
import { type Portal, PortalContext } from './portal-context.tsx';
import { resolveRoute } from './routes.tsx';

/** The portal: one login layout around the screen of the current path. */
export function App({ portal }: { portal: Portal }) {
  useLocationKey(); // re-render on navigation
  const { name, route } = resolveRoute(currentLocation().pathname);
  const Screen = route.component;
  return (
    <PortalContext value={portal}>
      <LoginLayout languageSelector={route.languageSelector === true}>
        <Suspense fallback={<p className="cp-loading">{portal.t('common.loading')}</p>}>
          <Screen key={name} />
        </Suspense>
      </LoginLayout>
    </PortalContext>
  );
}
