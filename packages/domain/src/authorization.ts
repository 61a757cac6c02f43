import type { Permission } from './roles.ts';
import type { UserType } from './user-types.ts';

/**
 * The one authorization policy (docs/authorization.md): every action a caller may take, by user type,
 * role permission and whether the session is an "access as user" one. Every application route declares
 * the action it needs (its contract's `permission`), the server checks it before the request's parts are
 * looked at (`403` with the rule's code), publishes it in the API document (`x-permission`), and the
 * authorization matrix test reads the declarations. The screens ask the same table to hide what the
 * server would refuse anyway.
 *
 * The type rule alone never grants access to a record: the server adds the caller's scope in SQL (the
 * access module's scope builders) and answers 404 for a record outside it, like an unknown one.
 */
export interface Rule {
  /** The user types that may take the action. */
  types: readonly UserType[];
  /** A role permission the caller must hold besides (docs/authorization.md "Roles and permissions"). */
  permission?: Permission;
  /** The refusal's code when the type or permission is missing (a `validation.{code}` message key). */
  refusal?: string;
  /** Types that see the data but may not change it: refused with `company.readOnly` (the notice). */
  readOnly?: readonly UserType[];
  /** The refusal's code while the session accesses as another user (the action is the real person's). */
  notWhileActing?: string;
}

const ALL: readonly UserType[] = ['Z', 'H', 'I', 'G', 'C', 'O', 'S', 'A'];
/** Everyone who manages or administers: all but the cardholder. */
const MANAGERS: readonly UserType[] = ['Z', 'H', 'I', 'G', 'C', 'O', 'S'];
/** The types that administer users (USER_TYPE_INFO.administersUsers). */
const ADMINISTRATORS: readonly UserType[] = ['Z', 'H', 'I', 'G', 'C'];
/** The administrators of a company's data; Z sees it read-only. */
const COMPANY_MAINTAINERS: readonly UserType[] = ['H', 'I', 'G', 'C'];

const rule = (types: readonly UserType[], more: Omit<Rule, 'types'> = {}): Rule => ({ types, ...more });

export const POLICY = {
  /** Any signed-in user: its own profile, cards, links and session. */
  signedIn: rule(ALL),

  // People (docs/authorization.md "Who may administer whom"): the target's type and scope decide the rest.
  viewUsers: rule(MANAGERS, { refusal: 'user.forbidden' }),
  administerUsers: rule(ADMINISTRATORS, { refusal: 'user.forbidden' }),
  viewAudit: rule(ADMINISTRATORS, { refusal: 'audit.forbidden' }),
  viewRoles: rule(ADMINISTRATORS, { refusal: 'role.forbidden' }),
  defineRoles: rule(['Z', 'H', 'I'], { refusal: 'role.forbidden' }),
  assignRoles: rule(ADMINISTRATORS, { refusal: 'role.forbidden' }),
  linkUsers: rule(ALL, {
    permission: 'linkUsers',
    refusal: 'multiUser.forbidden',
    notWhileActing: 'multiUser.forbidden',
  }),
  /** Confirming one's own membership of a link, choosing which linked ID to work as: the real person's. */
  ownLinks: rule(ALL, { notWhileActing: 'multiUser.forbidden' }),
  accessAsUser: rule(ALL, {
    permission: 'accessAsUser',
    refusal: 'accessAs.notPermitted',
    notWhileActing: 'accessAs.alreadyActing',
  }),

  // Organisations ("Organisations"): companies and their reporting structure.
  viewCompanies: rule(MANAGERS),
  createCompany: rule(['Z', 'H', 'I']),
  modifyCompany: rule(['Z', 'H', 'I', 'G']),
  deleteCompany: rule(['Z', 'H', 'I']),
  viewStructure: rule(MANAGERS),
  modifyStructure: rule(['Z', 'H', 'I', 'G', 'C']),

  // A company's cardholders, card accounts and account groups ("Accounts and cardholders").
  viewAccounts: rule(ALL),
  maintainAccounts: rule(COMPANY_MAINTAINERS, { readOnly: ['Z'] }),
  viewAccountGroups: rule(MANAGERS),
  maintainAccountGroups: rule(COMPANY_MAINTAINERS, { readOnly: ['Z'] }),
  /** Real cards (company card accounts without a cardholder, known by alias): the company's administrators. */
  viewRealCards: rule(ADMINISTRATORS),
  maintainRealCards: rule(COMPANY_MAINTAINERS, { readOnly: ['Z'] }),

  // Accounting codes and their values ("Accounting codes", docs/accounting.md): a company's ledger set-up,
  // kept by its administrators; the system administrator sees it read-only.
  viewAccountingCodes: rule(ADMINISTRATORS),
  maintainAccountingCodes: rule(COMPANY_MAINTAINERS, { readOnly: ['Z'] }),
  // A company's expense set-up (issue 17 item 1, docs/expenses.md): seen like its accounting codes.
  viewSelfRegistration: rule(ADMINISTRATORS),
  // Company self-registration (issue 18 item 1): the issuer's administrators invite and decide.
  viewCompanyRegistrations: rule(['Z', 'H', 'I']),
  // New card account applications (issue 18 item 3): the company's administrators review them.
  viewCardApplications: rule(ADMINISTRATORS),
  maintainCardApplications: rule(COMPANY_MAINTAINERS, { readOnly: ['Z'] }),
  maintainCompanyRegistrations: rule(['H', 'I'], { readOnly: ['Z'] }),
  maintainSelfRegistration: rule(COMPANY_MAINTAINERS, { readOnly: ['Z'] }),
  viewExpenseSettings: rule(ADMINISTRATORS),
  maintainExpenseSettings: rule(COMPANY_MAINTAINERS, { readOnly: ['Z'] }),
  // Expense reports (issue 17 items 2-4): only cardholders create them (seed 001 §6), the cardholder its
  // own (a super user accessing as the cardholder may prepare it; submitting is the cardholder's own
  // word); anyone the route asks approves or sends back — in person, never while accessing as another
  // user; the company's administrators reroute; who sees one is its scope (docs/expenses.md).
  createExpenseReports: rule(['A'], { refusal: 'expenseReport.cardholdersOnly' }),
  submitExpenseReports: rule(['A'], {
    refusal: 'expenseReport.cardholdersOnly',
    notWhileActing: 'expenseReport.notWhileActing',
  }),
  viewExpenseReports: rule(ALL),
  approveExpenseReports: rule(ALL, { notWhileActing: 'expenseReport.notWhileActing' }),
  viewCompanyExpenseReports: rule(ADMINISTRATORS),
  rerouteExpenseReports: rule(COMPANY_MAINTAINERS, {
    readOnly: ['Z'],
    notWhileActing: 'expenseReport.notWhileActing',
  }),

  // Card transactions ("Transactions"): everyone sees those of the cards in its scope; the company side
  // reviews (a cardholder its own), approvers with the role permission approve, program administrators
  // lock. The company's program option `transactionApproval` gates all three (docs/transactions.md).
  viewTransactions: rule(ALL),
  reviewTransactions: rule(['G', 'C', 'O', 'S', 'A'], { refusal: 'transactions.forbidden' }),
  approveTransactions: rule(['G', 'C', 'O', 'S'], {
    permission: 'approveTransactions',
    refusal: 'transactions.forbidden',
  }),
  lockTransactions: rule(['H', 'I', 'G', 'C'], { refusal: 'transactions.forbidden' }),
  /** Splitting a transaction into lines and unsplitting it: those who review it (purchase details). */
  splitTransactions: rule(['G', 'C', 'O', 'S', 'A'], { refusal: 'transactions.forbidden' }),
  /** Coding a transaction and allocating its cost (issue 16): those who review it; the scheme's override levels decide each code. */
  allocateTransactions: rule(['G', 'C', 'O', 'S', 'A'], { refusal: 'transactions.forbidden' }),
  /** Coding many of a company's transactions at once, and undoing it: the company's administrators. */
  massAllocateTransactions: rule(['G', 'C'], { refusal: 'transactions.forbidden' }),
  /** Filing a dispute on a transaction (the company's program option `disputes` gates it). */
  disputeTransactions: rule(['G', 'C', 'O', 'S', 'A'], { refusal: 'transactions.forbidden' }),
  /** The general-ledger export of approved transactions: the program administrators. */
  exportTransactions: rule(['H', 'I', 'G', 'C'], { refusal: 'transactions.forbidden' }),
  /** An issuer's transaction file, uploaded by its operators (the CLI takes files of any size). */
  importTransactions: rule(['Z', 'H', 'I'], { refusal: 'transactions.forbidden' }),

  // Issuers, issuer groups, company groups and program options ("Issuers and program options").
  viewIssuers: rule(['Z', 'H', 'I']),
  createIssuer: rule(['Z']),
  modifyIssuer: rule(['Z', 'H']),
  changeIssuerStatus: rule(['Z']),
  viewIssuerGroups: rule(['Z', 'H']),
  maintainIssuerGroups: rule(['Z']),
  viewCompanyGroups: rule(['Z', 'H', 'I', 'G']),
  maintainCompanyGroups: rule(['Z', 'H', 'I']),
  viewIssuerOptions: rule(['Z', 'H', 'I']),
  /** An issuer's code lists: dispute reasons, account status codes, maintenance reason codes. */
  viewIssuerCodes: rule(['Z', 'H', 'I']),
  maintainIssuerCodes: rule(['Z', 'H', 'I']),
  modifyIssuerOptions: rule(['Z', 'H']),
  viewCompanyOptions: rule(['Z', 'H', 'I', 'G']),
  modifyCompanyOptions: rule(['Z', 'H', 'I']),
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof POLICY;
export const ACTIONS = Object.keys(POLICY) as Action[];

export function isAction(value: unknown): value is Action {
  return typeof value === 'string' && Object.hasOwn(POLICY, value);
}

/** Who asks: a user type, the permissions of its roles, and whether it works "as" another user. */
export interface Subject {
  type: UserType;
  permissions?: ReadonlySet<Permission> | readonly Permission[];
  /** Access as user: the person really working in this session, when it is someone else. */
  accessedBy?: object | null;
}

/** A refused action: the code and message key of the 403 answer. */
export interface Refusal {
  code: string;
}

const holds = (subject: Subject, permission: Permission) => {
  const held = subject.permissions;
  if (!held) return false;
  return held instanceof Set ? held.has(permission) : (held as readonly Permission[]).includes(permission);
};

/**
 * Whether the subject may take the action, by type, permission and session alone: undefined when it
 * may, else the refusal. Checked in this order: acting as another user, a read-only type (its notice),
 * the type, the permission.
 */
export function authorize(subject: Subject, action: Action): Refusal | undefined {
  const r: Rule = POLICY[action];
  if (r.notWhileActing && subject.accessedBy) return { code: r.notWhileActing };
  if (r.readOnly?.includes(subject.type)) return { code: 'company.readOnly' };
  if (!r.types.includes(subject.type)) return { code: r.refusal ?? 'permission.denied' };
  if (r.permission && !holds(subject, r.permission)) return { code: r.refusal ?? 'permission.denied' };
  return undefined;
}

/** Whether the subject may take the action (the screens' and answers' flags). */
export function may(subject: Subject, action: Action): boolean {
  return authorize(subject, action) === undefined;
}

/** Company data a system administrator sees but does not change (the read-only notice). */
export function isAccountDataReadOnly(type: UserType): boolean {
  return (POLICY.maintainAccounts.readOnly ?? []).includes(type);
}
