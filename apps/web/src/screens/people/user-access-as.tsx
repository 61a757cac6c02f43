import type { UserDetail, UserType } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { reloadApp } from '../../api/session.ts';
import { useFocusOnProblem } from '../../frame/use-focus-on-problem.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { useAccessAs } from './people-queries.ts';

/** Types a super user may work as (company program administrator and below, seed 001 §6). */
const ACCESSIBLE: readonly UserType[] = ['C', 'O', 'S', 'A'];

/**
 * "Access as this user" on the user view: shown to a super user (permission `accessAsUser`) who is not
 * already working as someone, for a company administrator or below. The server decides the rest (scope,
 * status, links, the program option) and its refusal shows here.
 */
export function UserAccessAs({ detail }: { detail: UserDetail }) {
  const { t, user: me, problemText } = useApp();
  const access = useAccessAs();
  const problem = access.isError ? problemOf(access.error) : undefined;
  const alert = useFocusOnProblem(problem);
  if (
    !me.permissions.includes('accessAsUser') ||
    me.accessedBy !== null ||
    !ACCESSIBLE.includes(detail.userType) ||
    me.userId.toLowerCase() === detail.userId.toLowerCase()
  )
    return null;

  const start = () =>
    access.mutate(detail.userId, {
      onSuccess: (url) => reloadApp(url),
    });

  return (
    <div className="app-access-as" id="user-access-as">
      <ErrorSummary
        id="user-access-as-error"
        ref={alert}
        message={problem ? problemText(problem) : undefined}
      />
      <button
        type="button"
        className="app-button"
        id="user-access-as-button"
        aria-describedby="user-access-as-hint"
        disabled={access.isPending || access.isSuccess}
        onClick={start}
      >
        {t('app.people.accessAs.button')}
      </button>
      <p className="app-hint" id="user-access-as-hint">
        {t('app.people.accessAs.hint')}
      </p>
    </div>
  );
}
