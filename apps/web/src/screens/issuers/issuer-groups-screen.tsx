import { ErrorSummary } from '@cardportal/ui';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { usePageTitle } from '../../frame/use-page-title.ts';
import { useApp } from '../../lib/app-context.tsx';
import { problemOf } from '../../lib/query-client.ts';
import { GroupTable } from './group-table.tsx';
import { issuerGroupsQuery, useChangeIssuerGroup } from './issuers-queries.ts';

/** Issuer groups: Z sees and maintains all of them, H sees its own. */
export function IssuerGroupsScreen() {
  const { t, problemText } = useApp();
  usePageTitle(t('app.issuerGroups.heading'));
  const read = useQuery(issuerGroupsQuery());
  const change = useChangeIssuerGroup();
  const list = read.data;
  const problem = read.isError ? problemOf(read.error) : undefined;

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
          onChange={change.mutateAsync}
        />
      ) : null}
    </>
  );
}
