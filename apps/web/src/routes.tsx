import { mayOnOrganisation } from '@cardportal/domain';
import { lazy, Suspense } from 'react';
import { BrowserRouter, MemoryRouter, Navigate, Route, Routes } from 'react-router';
import { AppFrame } from './frame/app-frame.tsx';
import { mayCreateUsers, mayUseOrganisation, mayUsePeople } from './frame/permissions.ts';
import { AppProvider, useApp } from './lib/app-context.tsx';
import type { AppContext } from './lib/session.ts';
import { HomeScreen } from './screens/home/home-screen.tsx';

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
            </Route>
          ) : null}
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
      {initialPath ? (
        <MemoryRouter initialEntries={[initialPath]}>
          <RouteTable />
        </MemoryRouter>
      ) : (
        <BrowserRouter basename="/app">
          <RouteTable />
        </BrowserRouter>
      )}
    </AppProvider>
  );
}
