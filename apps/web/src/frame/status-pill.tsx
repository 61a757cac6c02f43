import type { UserStatus } from '@cardportal/domain';
import { useApp } from '../lib/app-context.tsx';

export function StatusPill({ status }: { status: UserStatus }) {
  const { t } = useApp();
  return (
    <span className={`app-status app-status--${status.toLowerCase()}`}>{t(`app.status.${status}`)}</span>
  );
}

export function ActivePill({ active }: { active: boolean }) {
  const { t } = useApp();
  const status = active ? 'Active' : 'Inactive';
  return (
    <span className={`app-status app-status--${status.toLowerCase()}`}>{t(`app.status.${status}`)}</span>
  );
}
