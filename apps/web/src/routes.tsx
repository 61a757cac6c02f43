import { mayOnAccounts, mayOnIssuers, mayOnOrganisation } from '@cardportal/domain';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { BrowserRouter, MemoryRouter, Navigate, Route, Routes } from 'react-router';
import { AppFrame } from './frame/app-frame.tsx';
import {
  mayCreateUsers,
  mayUseAudit,
  mayUseIssuers,
  mayUseMyCards,
  mayUseOrganisation,
  mayUsePeople,
  mayUseRoles,
} from './frame/permissions.ts';
import { AppProvider, useApp } from './lib/app-context.tsx';
import { createQueryClient } from './lib/query-client.ts';
import type { AppContext } from './lib/session.ts';
import { HomeScreen } from './screens/home/index.ts';
import { MultiUserGate } from './screens/multi-user/index.ts';

// People, Organisation and My Profile load on first use: the home page stays small.
const PeopleSearchScreen = lazy(() =>
  import('./screens/people/index.ts').then((m) => ({ default: m.PeopleSearchScreen })),
);
const UserViewScreen = lazy(() =>
  import('./screens/people/index.ts').then((m) => ({ default: m.UserViewScreen })),
);
const UserFormScreen = lazy(() =>
  import('./screens/people/index.ts').then((m) => ({ default: m.UserFormScreen })),
);
const CompanySearchScreen = lazy(() =>
  import('./screens/organisation/index.ts').then((m) => ({
    default: m.CompanySearchScreen,
  })),
);
const CompanyViewScreen = lazy(() =>
  import('./screens/organisation/index.ts').then((m) => ({ default: m.CompanyViewScreen })),
);
const CompanyFormScreen = lazy(() =>
  import('./screens/organisation/index.ts').then((m) => ({ default: m.CompanyFormScreen })),
);
const CardholderSearchScreen = lazy(() =>
  import('./screens/accounts/index.ts').then((m) => ({
    default: m.CardholderSearchScreen,
  })),
);
const CardholderViewScreen = lazy(() =>
  import('./screens/accounts/index.ts').then((m) => ({ default: m.CardholderViewScreen })),
);
const AccountSearchScreen = lazy(() =>
  import('./screens/accounts/index.ts').then((m) => ({ default: m.AccountSearchScreen })),
);
const AccountViewScreen = lazy(() =>
  import('./screens/accounts/index.ts').then((m) => ({ default: m.AccountViewScreen })),
);
const AccountGroupsScreen = lazy(() =>
  import('./screens/accounts/index.ts').then((m) => ({ default: m.AccountGroupsScreen })),
);
const MyCardsScreen = lazy(() =>
  import('./screens/accounts/index.ts').then((m) => ({ default: m.MyCardsScreen })),
);
const AuditScreen = lazy(() => import('./screens/audit/index.ts').then((m) => ({ default: m.AuditScreen })));
const IssuerSearchScreen = lazy(() =>
  import('./screens/issuers/index.ts').then((m) => ({ default: m.IssuerSearchScreen })),
);
const IssuerViewScreen = lazy(() =>
  import('./screens/issuers/index.ts').then((m) => ({ default: m.IssuerViewScreen })),
);
const IssuerFormScreen = lazy(() =>
  import('./screens/issuers/index.ts').then((m) => ({ default: m.IssuerFormScreen })),
);
const IssuerGroupsScreen = lazy(() =>
  import('./screens/issuers/index.ts').then((m) => ({ default: m.IssuerGroupsScreen })),
);
const ProgramOptionsScreen = lazy(() =>
  import('./screens/issuers/index.ts').then((m) => ({ default: m.ProgramOptionsScreen })),
);
const RolesScreen = lazy(() => import('./screens/roles/index.ts').then((m) => ({ default: m.RolesScreen })));
const ProfileScreen = lazy(() =>
  import('./screens/profile/index.ts').then((m) => ({ default: m.ProfileScreen })),
);

function Loading() {
  const { t } = useApp();
  return <p>{t('common.loading')}</p>;
}

function RouteTable() {
  const { user } = useApp();
  const people = mayUsePeople(user.userType);
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route element={<AppFrame />}>
          <Route index element={<HomeScreen />} />
          {people ? (
            <Route path="people">
              <Route index element={<PeopleSearchScreen />} />
              {mayCreateUsers(user.userType) ? (
                <Route path="new" element={<UserFormScreen mode="create" />} />
              ) : null}
              <Route path=":userId" element={<UserViewScreen />} />
              <Route path=":userId/edit" element={<UserFormScreen mode="edit" />} />
            </Route>
          ) : null}
          {mayUseOrganisation(user.userType) ? (
            <Route path="organisation">
              <Route index element={<CompanySearchScreen />} />
              {mayOnOrganisation(user.userType, 'createCompany') ? (
                <Route path="new" element={<CompanyFormScreen mode="create" />} />
              ) : null}
              <Route path=":number" element={<CompanyViewScreen />} />
              {mayOnOrganisation(user.userType, 'modifyCompany') ? (
                <Route path=":number/edit" element={<CompanyFormScreen mode="edit" />} />
              ) : null}
              {mayOnAccounts(user.userType, 'viewAccounts') ? (
                <>
                  <Route path=":number/cardholders" element={<CardholderSearchScreen />} />
                  <Route path=":number/cardholders/:id" element={<CardholderViewScreen />} />
                  <Route path=":number/accounts" element={<AccountSearchScreen />} />
                  <Route path=":number/accounts/:id" element={<AccountViewScreen />} />
                </>
              ) : null}
              {mayOnAccounts(user.userType, 'viewAccountGroups') ? (
                <Route path=":number/account-groups" element={<AccountGroupsScreen />} />
              ) : null}
              {mayOnIssuers(user.userType, 'viewCompanyOptions') ? (
                <Route path=":number/program-options" element={<ProgramOptionsScreen level="company" />} />
              ) : null}
            </Route>
          ) : null}
          {mayUseIssuers(user.userType) ? (
            <Route path="issuers">
              <Route index element={<IssuerSearchScreen />} />
              {mayOnIssuers(user.userType, 'createIssuer') ? (
                <Route path="new" element={<IssuerFormScreen mode="create" />} />
              ) : null}
              <Route path=":number" element={<IssuerViewScreen />} />
              {mayOnIssuers(user.userType, 'modifyIssuer') ? (
                <Route path=":number/edit" element={<IssuerFormScreen mode="edit" />} />
              ) : null}
              <Route path=":number/program-options" element={<ProgramOptionsScreen level="issuer" />} />
            </Route>
          ) : null}
          {mayOnIssuers(user.userType, 'viewIssuerGroups') ? (
            <Route path="issuer-groups" element={<IssuerGroupsScreen />} />
          ) : null}
          {mayUseMyCards(user.userType) ? <Route path="my-cards" element={<MyCardsScreen />} /> : null}
          {mayUseAudit(user.userType) ? <Route path="audit" element={<AuditScreen />} /> : null}
          {mayUseRoles(user.userType) ? <Route path="roles" element={<RolesScreen />} /> : null}
          <Route path="profile" element={<ProfileScreen />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

/** The application's routes under /app/ (or in memory, for tests). */
export function AppRoutes({
  context,
  languageTag,
  initialPath,
  queryClient,
}: {
  context: AppContext;
  languageTag: string;
  /** Tests: render in a memory router at this path. */
  initialPath?: string;
  /** The server-state cache; one per mounted application (a test's render gets a fresh one). */
  queryClient?: QueryClient;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <AppProvider context={context} languageTag={languageTag}>
      <QueryClientProvider client={client}>
        <MultiUserGate>
          {initialPath ? (
            <MemoryRouter initialEntries={[initialPath]}>
              <RouteTable />
            </MemoryRouter>
          ) : (
            <BrowserRouter basename="/app">
              <RouteTable />
            </BrowserRouter>
          )}
        </MultiUserGate>
      </QueryClientProvider>
    </AppProvider>
  );
}
