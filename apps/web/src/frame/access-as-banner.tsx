import { useState } from 'react';
import { ApiError } from '../api/client.ts';
import { reloadApp, returnFromAccessAs } from '../api/session.ts';
import { displayName, useApp } from '../lib/app-context.tsx';

/**
 * Access as user: while a super user works as someone else, every screen says so and offers the way
 * back to its own session ("return to original session", seed 001 §2).
 */
export function AccessAsBanner() {
  const { t, user, problemText } = useApp();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  if (!user.accessedBy) return null;
  const by = user.accessedBy;
  const back = async () => {
    setBusy(true);
    setProblem('');
    try {
      const { url } = await returnFromAccessAs();
      reloadApp(url);
    } catch (error) {
      setProblem(problemText(error instanceof ApiError ? error.code : 'generic'));
      setBusy(false);
    }
  };
  return (
    <section id="access-as-banner" className="access-as-banner" aria-label={t('app.accessAs.bannerLabel')}>
      <p>
        {t(
          'app.accessAs.banner',
          `${displayName(user)} (${user.userId})`,
          `${[by.firstName, by.lastName].filter(Boolean).join(' ')} (${by.userId})`,
        )}
      </p>
      {problem ? <p role="alert">{problem}</p> : null}
      <button id="access-as-return" type="button" disabled={busy} onClick={() => void back()}>
        {t('app.accessAs.return')}
      </button>
    </section>
  );
}
