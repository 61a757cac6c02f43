import { type Action, type AppTextNamespace, ISSUER_CODE_LIST_NAMES, may } from '@cardportal/domain';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, type ReactNode, Suspense, use, useState } from 'react';
import { BrowserRouter, MemoryRouter, Route, Routes } from 'react-router';
import { AppFrame } from './frame/app-frame.tsx';
import { NotFound, NotPermitted } from './frame/not-permitted.tsx';
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
const CardApplicationsScreen = screen('accounts', () =>
  import('./screens/accounts/index.ts').then((m) => m.CardApplicationsScreen),
);
const AccountingCodesScreen = screen('accounting', () =>
  import('./screens/accounting/index.ts').then((m) => m.AccountingCodesScreen),
);
const AccountingValuesScreen = screen('accounting', () =>
  import('./screens/accounting/index.ts').then((m) => m.AccountingValuesScreen),
);
const AccountingSchemesScreen = screen('accounting', () =>
  import('./screens/accounting/index.ts').then((m) => m.AccountingSchemesScreen),
);
const AccountingSubsetsScreen = screen('accounting', () =>
  import('./screens/accounting/index.ts').then((m) => m.AccountingSubsetsScreen),
);
const AccountCodingScreen = screen('accounting', () =>
  import('./screens/accounting/index.ts').then((m) => m.AccountCodingScreen),
);
const CustomFieldsScreen = screen('accounting', () =>
  import('./screens/accounting/index.ts').then((m) => m.CustomFieldsScreen),
);
const ExpenseTypesScreen = screen('expenses', () =>
  import('./screens/expenses/index.ts').then((m) => m.ExpenseTypesScreen),
);
const ExpensePolicyScreen = screen('expenses', () =>
  import('./screens/expenses/index.ts').then((m) => m.ExpensePolicyScreen),
);
const ExpenseRatesScreen = screen('expenses', () =>
  import('./screens/expenses/index.ts').then((m) => m.ExpenseRatesScreen),
);
const ExpenseApprovalsScreen = screen('expenses', () =>
  import('./screens/expenses/index.ts').then((m) => m.ExpenseApprovalsScreen),
);
const MyExpenseReportsScreen = screen('expenses', () =>
  import('./screens/expenses/index.ts').then((m) => m.MyExpenseReportsScreen),
);
const ExpenseReportScreen = screen('expenses', () =>
  import('./screens/expenses/index.ts').then((m) => m.ExpenseReportScreen),
);
const ExpenseQueueScreen = screen('expenses', () =>
  import('./screens/expenses/index.ts').then((m) => m.ExpenseQueueScreen),
);
const CompanyExpenseReportsScreen = screen('expenses', () =>
  import('./screens/expenses/index.ts').then((m) => m.CompanyExpenseReportsScreen),
);
const MassAllocationScreen = screen('accounting', () =>
  import('./screens/accounting/index.ts').then((m) => m.MassAllocationScreen),
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
const CompanyRegistrationsScreen = screen('issuers', () =>
  import('./screens/issuers/index.ts').then((m) => m.CompanyRegistrationsScreen),
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

/** A page the user's type may use, or the page that says it may not (issue 20 item 2). */
const gate = (allowed: boolean, element: ReactNode): ReactNode => (allowed ? element : <NotPermitted />);

function RouteTable() {
  const { user } = useApp();
  const people = mayUsePeople(user.userType);
  const can = (action: Action) => may({ type: user.userType }, action);
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route element={<AppFrame />}>
          <Route index element={<HomeScreen />} />
          <Route path="people">
            <Route index element={gate(people, <PeopleSearchScreen />)} />
            <Route
              path="new"
              element={gate(people && mayCreateUsers(user.userType), <UserFormScreen mode="create" />)}
            />
            <Route path=":userId" element={gate(people, <UserViewScreen />)} />
            <Route path=":userId/edit" element={gate(people, <UserFormScreen mode="edit" />)} />
          </Route>
          <Route path="organisation">
            <Route index element={gate(mayUseOrganisation(user.userType), <CompanySearchScreen />)} />
            <Route path="new" element={gate(can('createCompany'), <CompanyFormScreen mode="create" />)} />
            <Route path=":number" element={gate(mayUseOrganisation(user.userType), <CompanyViewScreen />)} />
            <Route
              path=":number/edit"
              element={gate(can('modifyCompany'), <CompanyFormScreen mode="edit" />)}
            />
            <Route
              path=":number/cardholders"
              element={gate(can('viewAccounts'), <CardholderSearchScreen />)}
            />
            <Route
              path=":number/cardholders/:id"
              element={gate(can('viewAccounts'), <CardholderViewScreen />)}
            />
            <Route path=":number/accounts" element={gate(can('viewAccounts'), <AccountSearchScreen />)} />
            <Route path=":number/accounts/:id" element={gate(can('viewAccounts'), <AccountViewScreen />)} />
            <Route
              path=":number/account-groups"
              element={gate(can('viewAccountGroups'), <AccountGroupsScreen />)}
            />
            <Route path=":number/real-cards" element={gate(can('viewRealCards'), <RealCardsScreen />)} />
            <Route
              path=":number/card-applications"
              element={gate(can('viewCardApplications'), <CardApplicationsScreen />)}
            />
            <Route
              path=":number/accounting-codes"
              element={gate(can('viewAccountingCodes'), <AccountingCodesScreen />)}
            />
            <Route
              path=":number/accounting-codes/:id"
              element={gate(can('viewAccountingCodes'), <AccountingValuesScreen />)}
            />
            <Route
              path=":number/accounting-schemes"
              element={gate(can('viewAccountingCodes'), <AccountingSchemesScreen />)}
            />
            <Route
              path=":number/accounting-subsets"
              element={gate(can('viewAccountingCodes'), <AccountingSubsetsScreen />)}
            />
            <Route
              path=":number/custom-fields"
              element={gate(can('viewAccountingCodes'), <CustomFieldsScreen />)}
            />
            <Route
              path=":number/expenses"
              element={gate(can('viewExpenseSettings'), <ExpenseTypesScreen />)}
            />
            <Route
              path=":number/expenses/types"
              element={gate(can('viewExpenseSettings'), <ExpenseTypesScreen />)}
            />
            <Route
              path=":number/expenses/policy"
              element={gate(can('viewExpenseSettings'), <ExpensePolicyScreen />)}
            />
            <Route
              path=":number/expenses/rates"
              element={gate(can('viewExpenseSettings'), <ExpenseRatesScreen />)}
            />
            <Route
              path=":number/expenses/approvals"
              element={gate(can('viewExpenseSettings'), <ExpenseApprovalsScreen />)}
            />
            <Route
              path=":number/expenses/reports"
              element={gate(can('viewCompanyExpenseReports'), <CompanyExpenseReportsScreen />)}
            />
            <Route
              path=":number/mass-allocation"
              element={gate(can('massAllocateTransactions'), <MassAllocationScreen />)}
            />
            <Route
              path=":number/accounts/:id/coding"
              element={gate(can('viewAccountingCodes'), <AccountCodingScreen />)}
            />
            <Route
              path=":number/program-options"
              element={gate(can('viewCompanyOptions'), <ProgramOptionsScreen level="company" />)}
            />
          </Route>
          <Route path="issuers">
            <Route index element={gate(mayUseIssuers(user.userType), <IssuerSearchScreen />)} />
            <Route path="new" element={gate(can('createIssuer'), <IssuerFormScreen mode="create" />)} />
            <Route path=":number" element={gate(mayUseIssuers(user.userType), <IssuerViewScreen />)} />
            <Route
              path=":number/edit"
              element={gate(can('modifyIssuer'), <IssuerFormScreen mode="edit" />)}
            />
            <Route
              path=":number/program-options"
              element={gate(mayUseIssuers(user.userType), <ProgramOptionsScreen level="issuer" />)}
            />
            <Route
              path=":number/company-registrations"
              element={gate(can('viewCompanyRegistrations'), <CompanyRegistrationsScreen />)}
            />
            {ISSUER_CODE_LIST_NAMES.map((list) => (
              <Route
                key={list}
                path={`:number/${list}`}
                element={gate(mayViewIssuerCodes(user.userType), <IssuerCodesScreen list={list} />)}
              />
            ))}
          </Route>
          <Route path="issuer-groups" element={gate(can('viewIssuerGroups'), <IssuerGroupsScreen />)} />
          <Route path="transactions">
            <Route index element={gate(mayUseTransactions(user.userType), <TransactionsScreen />)} />
            <Route
              path="import"
              element={gate(mayImportTransactions(user.userType), <TransactionImportScreen />)}
            />
            <Route
              path="exports"
              element={gate(mayExportTransactions(user.userType), <TransactionExportScreen />)}
            />
            <Route path=":id" element={gate(mayUseTransactions(user.userType), <TransactionViewScreen />)} />
          </Route>
          <Route path="expense-reports">
            <Route index element={gate(can('createExpenseReports'), <MyExpenseReportsScreen />)} />
            <Route path=":id" element={gate(can('viewExpenseReports'), <ExpenseReportScreen />)} />
          </Route>
          <Route path="expense-approvals" element={gate(can('viewExpenseReports'), <ExpenseQueueScreen />)} />
          <Route path="my-cards" element={gate(mayUseMyCards(user.userType), <MyCardsScreen />)} />
          <Route path="audit" element={gate(mayUseAudit(user.userType), <AuditScreen />)} />
          <Route path="roles" element={gate(mayUseRoles(user.userType), <RolesScreen />)} />
          <Route path="profile" element={<ProfileScreen />} />
          <Route path="*" element={<NotFound />} />
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
