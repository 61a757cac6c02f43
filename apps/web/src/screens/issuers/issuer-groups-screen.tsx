import type { IssuerGroupList } from '@cardportal/domain';
import { ErrorSummary } from '@cardportal/ui';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client.ts';
import {
  createIssuerGroup,
  listIssuerGroups,
  renameIssuerGroup,
  setIssuerGroupActive,
} from '../../api/issuers.ts';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { GroupTable } from './group-table.tsx';

/** Issuer groups: Z sees and maintains all of them, H sees its own. */
export function IssuerGroupsScreen() {
  const { t, problemText } = useApp();
  usePageTitle(t('app.issuerGroups.heading'));
  const [list, setList] = useState<IssuerGroupList | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  const load = useCallback(
    (signal?: AbortSignal) =>
      listIssuerGroups(signal).then(setList, (error: unknown) => {
        if (!signal?.aborted) setProblem(error instanceof ApiError ? error.code : 'error.generic');
      }),
    [],
  );

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  return (
    <>
      <h1>{t('app.issuerGroups.heading')}</h1>
      <p>
        <Link to="/issuers">{t('app.issuers.view.back')}</Link>
      </p>
      <ErrorSummary id="issuer-groups-error" message={problem ? problemText(problem) : undefined} />
      {!list && !problem ? <p>{t('common.loading')}</p> : null}
      {list ? (
        <GroupTable
          kind="issuerGroup"
          rows={list.rows.map((r) => ({
            id: r.id,
            name: r.name,
            active: r.active,
            activeCount: r.activeIssuerCount,
          }))}
          canMaintain={list.canMaintain}
          onCreate={async (name) => {
            await createIssuerGroup(name);
            await load();
          }}
          onRename={async (id, name) => {
            await renameIssuerGroup(id, name);
            await load();
          }}
          onSetActive={async (id, active) => {
            await setIssuerGroupActive(id, active);
            await load();
          }}
        />
      ) : null}
    </>
  );
}
