import { lazy, type ReactNode, Suspense } from 'react';
import { useApp } from '../../lib/app-context.tsx';

// The two screens load on demand: most sessions never see them, and their form pieces (react-hook-form,
// zod's resolver) would otherwise be part of every page's first load.
const ConfirmLinkScreen = lazy(() =>
  import('./multi-user-screens.tsx').then((m) => ({ default: m.ConfirmLinkScreen })),
);
const ChooseUserScreen = lazy(() =>
  import('./multi-user-screens.tsx').then((m) => ({ default: m.ChooseUserScreen })),
);

/**
 * Multi-user after sign-in (seed 001 §2 "multi-user login selection and confirmation"): a user whose
 * link awaits its confirmation confirms or declines it first; a confirmed member of a link chooses the
 * user ID to work as. Anyone else goes straight to the application.
 */
export function MultiUserGate({ children }: { children: ReactNode }) {
  const { user } = useApp();
  if (user.multiUser.confirm)
    return (
      <Suspense fallback={null}>
        <ConfirmLinkScreen members={user.multiUser.confirm} />
      </Suspense>
    );
  if (user.multiUser.choices.length > 1)
    return (
      <Suspense fallback={null}>
        <ChooseUserScreen choices={user.multiUser.choices} />
      </Suspense>
    );
  return <>{children}</>;
}
