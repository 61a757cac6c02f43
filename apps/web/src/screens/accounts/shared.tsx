import type { AccountStatus } from '@cardportal/domain';
import { useApp } from '../../lib/app-context.tsx';

/** Active / Suspended / Closed as a pill. */
export function AccountStatusPill({ status }: { status: AccountStatus }) {
  const { t } = useApp();
  return (
    <span className={`app-status app-status--${status.toLowerCase()}`}>
      {t(`app.accounts.status.${status}`)}
    </span>
  );
}

/** Name 1 and name 2 as one line. */
export const fullName = (holder: { name1: string; name2: string } | null | undefined) =>
  holder ? [holder.name1, holder.name2].filter(Boolean).join(' ') : '';
