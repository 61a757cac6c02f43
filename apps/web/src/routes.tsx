import { type AppTextNamespace, ISSUER_CODE_LIST_NAMES, may } from '@cardportal/domain';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, use, useState } from 'react';
import { BrowserRouter, MemoryRouter, Navigate, Route, Routes } from 'react-router';
import { AppFrame } from './frame/app-frame.tsx';
import {
  mayCreateUsers,
  mayExportTransactions,
  mayImportTransactions,
  mayUseAudit,
  mayUseIssuers,
  mayUseMyCards,
  mayUseOrganisation,
  mayUsePeople,
  mayUseRoles,
  mayUseTransactions,
  mayViewIssuerCodes,
} from './frame/permissions.ts';
import { AppProvider, useApp } from './lib/app-context.tsx';
import { createQueryClient } from './lib/query-client.ts';
import type { AppContext } from './lib/session.ts';
import { loadNamespace } from './lib/text.ts';
import { HomeScreen } from './screens/home/index.ts';
import { MultiUserGate } from './screens/multi-user/index.ts';

/**
 * A screen that loads on first use (the home page stays small), with its folder's texts (docs/text.md):
 * the code and the namespace are fetched at once, and it renders when both are in.
 */
function screen<P extends object>(namespace: AppTextNamespace, load: () => Promise<ComponentType<P>>) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: called once per screen, at module level (below)
  return function Screen(props: P) {
    const { texts } = useApp();
    if (!texts.hasLoadedNamespace(namespace)) {
      void load();
      use(loadNamespace(texts, namespace));
    }
    return <Lazy {...props} />;
  };
}

const PeopleSearchScreen = screen('people', () =>
  import('./screens/people/index.ts').then((m) => m.PeopleSearchScreen),
);
const UserViewScreen = screen('people', () =>
  import('./screens/people/index.ts').then((m) => m.UserViewScreen),
);
const UserFormScreen = screen('people', () =>
  import('./screens/people/index.ts').then((m) => m.UserFormScreen),
);
const CompanySearchScreen = screen('organisation', () =>
  import('./screens/organisation/index.ts').then((m) => m.CompanySearchScreen),
);
const CompanyViewScreen = screen('organisation', () =>
  import('./screens/organisation/index.ts').then((m) => m.CompanyViewScreen),
);
const CompanyFormScreen = screen('organisation', () =>
  import('./screens/organisation/index.ts').then((m) => m.CompanyFormScreen),
);
const CardholderSearchScreen = screen('accounts', () =>
  import('./screens/accounts/index.ts').then((m) => m.CardholderSearchScreen),
);
const CardholderViewScreen = screen('accounts', () =>
  import('./screens/accounts/index.ts').then((m) => m.CardholderViewScreen),
);
const AccountSearchScreen = screen('accounts', () =>
  import('./screens/accounts/index.ts').then((m) => m.AccountSearchScreen),
);
const AccountViewScreen = screen('accounts', () =>
  import('./screens/accounts/index.ts').then((m) => m.AccountViewScreen),
);
const AccountGroupsScreen = screen('accounts', () =>
  import('./screens/accounts/index.ts').then((m) => m.AccountGroupsScreen),
);
const RealCardsScreen = screen('accounts', () =>
  import('./screens/accounts/index.ts').then((m) => m.RealCardsScreen),
);
const MyCardsScreen = screen('accounts', () =>
  import('./screens/accounts/index.ts').then((m) => m.MyCardsScreen),
);
const AuditScreen = screen('audit', () => import('./screens/audit/index.ts').then((m) => m.AuditScreen));
const IssuerSearchScreen = screen('issuers', () =>
  import('./screens/issuers/index.ts').then((m) => m.IssuerSearchScreen),
);
const IssuerViewScreen = screen('issuers', () =>
  import('./screens/issuers/index.ts').then((m) => m.IssuerViewScreen),
);
const IssuerFormScreen = screen('issuers', () =>
  import('./screens/issuers/index.ts').then((m) => m.IssuerFormScreen),
);
const IssuerGroupsScreen = screen('issuers', () =>
  import('./screens/issuers/index.ts').then((m) => m.IssuerGroupsScreen),
);
const ProgramOptionsScreen = screen('issuers', () =>
  import('./screens/issuers/index.ts').then((m) => m.ProgramOptionsScreen),
);
const TransactionsScreen = screen('transactions', () =>
  import('./screens/transactions/index.ts').then((m) => m.TransactionsScreen),
);
const TransactionImportScreen = screen('transactions', () =>
  import('./screens/transactions/index.ts').then((m) => m.TransactionImportScreen),
);
const TransactionExportScreen = screen('transactions', () =>
  import('./screens/transactions/index.ts').then((m) => m.TransactionExportScreen),
);
const IssuerCodesScreen = screen('issuers', () =>
  import('./screens/issuers/index.ts').then((m) => m.IssuerCodesScreen),
);
const TransactionViewScreen = screen('transactions', () =>
  import('./screens/transactions/index.ts').then((m) => m.TransactionViewScreen),
);
const RolesScreen = screen('roles', () => import('./screens/roles/index.ts').then((m) => m.RolesScreen));
const ProfileScreen = screen('profile', () =>
  import('./screens/profile/index.ts').then((m) => m.ProfileScreen),
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
              {may({ type: user.userType }, 'createCompany') ? (
                <Route path="new" element={<CompanyFormScreen mode="create" />} />
              ) : null}
              <Route path=":number" element={<CompanyViewScreen />} />
              {may({ type: user.userType }, 'modifyCompany') ? (
                <Route path=":number/edit" element={<CompanyFormScreen mode="edit" />} />
              ) : null}
              {may({ type: user.userType }, 'viewAccounts') ? (
                <>
                  <Route path=":number/cardholders" element={<CardholderSearchScreen />} />
                  <Route path=":number/cardholders/:id" element={<CardholderViewScreen />} />
                  <Route path=":number/accounts" element={<AccountSearchScreen />} />
                  <Route path=":number/accounts/:id" element={<AccountViewScreen />} />
                </>
              ) : null}
              {may({ type: user.userType }, 'viewAccountGroups') ? (
                <Route path=":number/account-groups" element={<AccountGroupsScreen />} />
              ) : null}
              {may({ type: user.userType }, 'viewRealCards') ? (
                <Route path=":number/real-cards" element={<RealCardsScreen />} />
              ) : null}
              {may({ type: user.userType }, 'viewCompanyOptions') ? (
                <Route path=":number/program-options" element={<ProgramOptionsScreen level="company" />} />
              ) : null}
            </Route>
          ) : null}
          {mayUseIssuers(user.userType) ? (
            <Route path="issuers">
              <Route index element={<IssuerSearchScreen />} />
              {may({ type: user.userType }, 'createIssuer') ? (
                <Route path="new" element={<IssuerFormScreen mode="create" />} />
              ) : null}
              <Route path=":number" element={<IssuerViewScreen />} />
              {may({ type: user.userType }, 'modifyIssuer') ? (
                <Route path=":number/edit" element={<IssuerFormScreen mode="edit" />} />
              ) : null}
              <Route path=":number/program-options" element={<ProgramOptionsScreen level="issuer" />} />
              {mayViewIssuerCodes(user.userType)
                ? ISSUER_CODE_LIST_NAMES.map((list) => (
                    <Route key={list} path={`:number/${list}`} element={<IssuerCodesScreen list={list} />} />
                  ))
                : null}
            </Route>
          ) : null}
          {may({ type: user.userType }, 'viewIssuerGroups') ? (
            <Route path="issuer-groups" element={<IssuerGroupsScreen />} />
          ) : null}
          {mayUseTransactions(user.userType) ? (
            <Route path="transactions">
              <Route index element={<TransactionsScreen />} />
              {mayImportTransactions(user.userType) ? (
                <Route path="import" element={<TransactionImportScreen />} />
              ) : null}
              {mayExportTransactions(user.userType) ? (
                <Route path="exports" element={<TransactionExportScreen />} />
              ) : null}
              <Route path=":id" element={<TransactionViewScreen />} />
            </Route>
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
