import type { UserDetail, UserType } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { accessAs } from '../../api/multi-user.ts';
import { reloadApp } from '../../api/session.ts';
import { useApp } from '../../lib/app-context.tsx';

/** Types a super user may work as (company program administrator and below, seed 001 §6). */
const ACCESSIBLE: readonly UserType[] = ['C', 'O', 'S', 'A'];

/**
 * "Access as this user" on the user view: shown to a super user (permission `accessAsUser`) who is not
 * already working as someone, for a company administrator or below. The server decides the rest (scope,
 * status, links, the program option) and its refusal shows here.
 */
export function UserAccessAs({ detail }: { detail: UserDetail }) {
  const { t, user: me, problemText } = useApp();
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  if (
    !me.permissions.includes('accessAsUser') ||
    me.accessedBy !== null ||
    !ACCESSIBLE.includes(detail.userType) ||
    me.userId.toLowerCase() === detail.userId.toLowerCase()
  )
    return null;

  const start = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      reloadApp(await accessAs(detail.userId));
    } catch (error) {
      setProblem(error instanceof ApiError ? error.code : 'error.generic');
      setBusy(false);
      window.setTimeout(() => document.getElementById('user-access-as-error')?.focus(), 0);
    }
  };

  return (
    <div className="app-access-as" id="user-access-as">
      <ErrorSummary id="user-access-as-error" message={problem ? problemText(problem) : undefined} />
      <button
        type="button"
        className="app-button"
        id="user-access-as-button"
        aria-describedby="user-access-as-hint"
        disabled={busy}
        onClick={() => void start()}
      >
        {t('app.people.accessAs.button')}
      </button>
      <p className="app-hint" id="user-access-as-hint">
        {t('app.people.accessAs.hint')}
      </p>
    </div>
  );
}
