import { mayOnAccounts, mayOnIssuers, mayOnOrganisation } from '@cardportal/domain';
import { lazy, Suspense } from 'react';
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
import type { AppContext } from './lib/session.ts';
import { HomeScreen } from './screens/home/home-screen.tsx';
import { MultiUserGate } from './screens/multi-user/multi-user-gate.tsx';

// People, Organisation and My Profile load on first use: the home page stays small.
const PeopleSearchScreen = lazy(() =>
  import('./screens/people/people-search-screen.tsx').then((m) => ({ default: m.PeopleSearchScreen })),
);
const UserViewScreen = lazy(() =>
  import('./screens/people/user-view-screen.tsx').then((m) => ({ default: m.UserViewScreen })),
);
const UserFormScreen = lazy(() =>
  import('./screens/people/user-form-screen.tsx').then((m) => ({ default: m.UserFormScreen })),
);
const CompanySearchScreen = lazy(() =>
  import('./screens/organisation/company-search-screen.tsx').then((m) => ({
    default: m.CompanySearchScreen,
  })),
);
const CompanyViewScreen = lazy(() =>
  import('./screens/organisation/company-view-screen.tsx').then((m) => ({ default: m.CompanyViewScreen })),
);
const CompanyFormScreen = lazy(() =>
  import('./screens/organisation/company-form-screen.tsx').then((m) => ({ default: m.CompanyFormScreen })),
);
const CardholderSearchScreen = lazy(() =>
  import('./screens/accounts/cardholder-search-screen.tsx').then((m) => ({
    default: m.CardholderSearchScreen,
  })),
);
const CardholderViewScreen = lazy(() =>
  import('./screens/accounts/cardholder-view-screen.tsx').then((m) => ({ default: m.CardholderViewScreen })),
);
const AccountSearchScreen = lazy(() =>
  import('./screens/accounts/account-search-screen.tsx').then((m) => ({ default: m.AccountSearchScreen })),
);
const AccountViewScreen = lazy(() =>
  import('./screens/accounts/account-view-screen.tsx').then((m) => ({ default: m.AccountViewScreen })),
);
const AccountGroupsScreen = lazy(() =>
  import('./screens/accounts/account-groups-screen.tsx').then((m) => ({ default: m.AccountGroupsScreen })),
);
const MyCardsScreen = lazy(() =>
  import('./screens/accounts/my-cards-screen.tsx').then((m) => ({ default: m.MyCardsScreen })),
);
const AuditScreen = lazy(() =>
  import('./screens/audit/audit-screen.tsx').then((m) => ({ default: m.AuditScreen })),
);
const IssuerSearchScreen = lazy(() =>
  import('./screens/issuers/issuer-search-screen.tsx').then((m) => ({ default: m.IssuerSearchScreen })),
);
const IssuerViewScreen = lazy(() =>
  import('./screens/issuers/issuer-view-screen.tsx').then((m) => ({ default: m.IssuerViewScreen })),
);
const IssuerFormScreen = lazy(() =>
  import('./screens/issuers/issuer-form-screen.tsx').then((m) => ({ default: m.IssuerFormScreen })),
);
const IssuerGroupsScreen = lazy(() =>
  import('./screens/issuers/issuer-groups-screen.tsx').then((m) => ({ default: m.IssuerGroupsScreen })),
);
const ProgramOptionsScreen = lazy(() =>
  import('./screens/issuers/program-options-screen.tsx').then((m) => ({ default: m.ProgramOptionsScreen })),
);
const RolesScreen = lazy(() =>
  import('./screens/roles/roles-screen.tsx').then((m) => ({ default: m.RolesScreen })),
);
const ProfileScreen = lazy(() =>
  import('./screens/profile/profile-screen.tsx').then((m) => ({ default: m.ProfileScreen })),
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
}: {
  context: AppContext;
  languageTag: string;
  /** Tests: render in a memory router at this path. */
  initialPath?: string;
}) {
  return (
    <AppProvider context={context} languageTag={languageTag}>
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
    </AppProvider>
  );
}
