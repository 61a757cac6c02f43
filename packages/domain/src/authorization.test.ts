import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  type Action,
  authorize,
  isAccountDataReadOnly,
  isAction,
  may,
  POLICY,
} from './authorization.ts';
import { USER_TYPE_CODES, USER_TYPE_INFO, type UserType } from './user-types.ts';

/**
 * The decision table of docs/authorization.md, written out by hand: which user types may take each
 * action (with the permission the action needs, when it needs one). A change to the policy that this
 * table does not make too fails here.
 */
const TABLE: Record<Action, string> = {
  signedIn: 'ZHIGCOSA',
  viewUsers: 'ZHIGCOS',
  administerUsers: 'ZHIGC',
  viewAudit: 'ZHIGC',
  viewRoles: 'ZHIGC',
  defineRoles: 'ZHI',
  assignRoles: 'ZHIGC',
  linkUsers: 'ZHIGCOSA',
  ownLinks: 'ZHIGCOSA',
  accessAsUser: 'ZHIGCOSA',
  viewCompanies: 'ZHIGCOS',
  createCompany: 'ZHI',
  modifyCompany: 'ZHIG',
  deleteCompany: 'ZHI',
  viewStructure: 'ZHIGCOS',
  modifyStructure: 'ZHIGC',
  viewAccounts: 'ZHIGCOSA',
  viewTransactions: 'ZHIGCOSA',
  reviewTransactions: 'GCOSA',
  approveTransactions: 'GCOS',
  lockTransactions: 'HIGC',
  importTransactions: 'ZHI',
  splitTransactions: 'GCOSA',
  disputeTransactions: 'GCOSA',
  allocateTransactions: 'GCOSA',
  massAllocateTransactions: 'GC',
  exportTransactions: 'HIGC',
  maintainAccounts: 'HIGC',
  viewAccountGroups: 'ZHIGCOS',
  maintainAccountGroups: 'HIGC',
  viewRealCards: 'ZHIGC',
  maintainRealCards: 'HIGC',
  viewAccountingCodes: 'ZHIGC',
  maintainAccountingCodes: 'HIGC',
  viewSelfRegistration: 'ZHIGC',
  viewCompanyRegistrations: 'ZHI',
  viewCardApplications: 'ZHIGC',
  maintainCardApplications: 'HIGC',
  maintainCompanyRegistrations: 'HI',
  maintainSelfRegistration: 'HIGC',
  viewExpenseSettings: 'ZHIGC',
  maintainExpenseSettings: 'HIGC',
  createExpenseReports: 'A',
  submitExpenseReports: 'A',
  viewExpenseReports: 'ZHIGCOSA',
  approveExpenseReports: 'ZHIGCOSA',
  viewCompanyExpenseReports: 'ZHIGC',
  rerouteExpenseReports: 'HIGC',
  viewIssuers: 'ZHI',
  createIssuer: 'Z',
  modifyIssuer: 'ZH',
  changeIssuerStatus: 'Z',
  viewIssuerGroups: 'ZH',
  maintainIssuerGroups: 'Z',
  viewCompanyGroups: 'ZHIG',
  maintainCompanyGroups: 'ZHI',
  viewIssuerOptions: 'ZHI',
  modifyIssuerOptions: 'ZH',
  viewIssuerCodes: 'ZHI',
  maintainIssuerCodes: 'ZHI',
  viewCompanyOptions: 'ZHIG',
  modifyCompanyOptions: 'ZHI',
};

const ALL_PERMISSIONS = ['peerUserModify', 'linkUsers', 'accessAsUser', 'approveTransactions'] as const;
const allowedTypes = (action: Action) =>
  USER_TYPE_CODES.filter((type: UserType) => may({ type, permissions: ALL_PERMISSIONS }, action))
    .sort()
    .join('');

describe('the authorization policy', () => {
  it('has a row in the table for every action and no other', () => {
    expect([...ACTIONS].sort()).toEqual(Object.keys(TABLE).sort());
  });

  for (const [action, types] of Object.entries(TABLE) as [Action, string][]) {
    it(`${action}: ${types}`, () => {
      expect(allowedTypes(action)).toBe([...types].sort().join(''));
    });
  }

  it('refuses with the rule’s code, else permission.denied', () => {
    expect(authorize({ type: 'A' }, 'viewUsers')).toEqual({ code: 'user.forbidden' });
    expect(authorize({ type: 'O' }, 'viewAudit')).toEqual({ code: 'audit.forbidden' });
    expect(authorize({ type: 'C' }, 'defineRoles')).toEqual({ code: 'role.forbidden' });
    expect(authorize({ type: 'C' }, 'createCompany')).toEqual({ code: 'permission.denied' });
    expect(authorize({ type: 'C' }, 'viewIssuers')).toEqual({ code: 'permission.denied' });
    expect(authorize({ type: 'C' }, 'viewCompanies')).toBeUndefined();
  });

  it('lets the administrators of users be exactly the types that administer users', () => {
    const administrators = USER_TYPE_CODES.filter((t) => USER_TYPE_INFO[t].administersUsers)
      .sort()
      .join('');
    expect(allowedTypes('administerUsers')).toBe(administrators);
    expect(allowedTypes('viewAudit')).toBe(administrators);
  });

  it('needs the role permission for links and access as user, and refuses both while acting as someone', () => {
    expect(authorize({ type: 'C' }, 'linkUsers')).toEqual({ code: 'multiUser.forbidden' });
    expect(authorize({ type: 'C', permissions: ['linkUsers'] }, 'linkUsers')).toBeUndefined();
    expect(
      authorize({ type: 'C', permissions: new Set(['linkUsers'] as const) }, 'linkUsers'),
    ).toBeUndefined();
    expect(
      authorize({ type: 'C', permissions: ['linkUsers'], accessedBy: { userId: 'admin01' } }, 'linkUsers'),
    ).toEqual({
      code: 'multiUser.forbidden',
    });
    expect(authorize({ type: 'C', permissions: ['linkUsers'] }, 'accessAsUser')).toEqual({
      code: 'accessAs.notPermitted',
    });
    // Acting is told first: "you are already working as someone", whatever the permissions.
    expect(authorize({ type: 'C', accessedBy: { userId: 'admin01' } }, 'accessAsUser')).toEqual({
      code: 'accessAs.alreadyActing',
    });
    expect(authorize({ type: 'C', permissions: ['accessAsUser'] }, 'accessAsUser')).toBeUndefined();
  });

  it('gives a system administrator company data to read, not to change (the read-only notice)', () => {
    expect(isAccountDataReadOnly('Z')).toBe(true);
    for (const t of USER_TYPE_CODES.filter((c) => c !== 'Z')) expect(isAccountDataReadOnly(t)).toBe(false);
    expect(authorize({ type: 'Z' }, 'viewAccounts')).toBeUndefined();
    expect(authorize({ type: 'Z' }, 'maintainAccounts')).toEqual({ code: 'company.readOnly' });
    expect(authorize({ type: 'Z' }, 'maintainAccountGroups')).toEqual({ code: 'company.readOnly' });
  });

  it('gives company administrators and below nothing of the issuers', () => {
    const issuerActions = ACTIONS.filter((a) => /Issuer|CompanyGroups|Options/.test(a));
    expect(issuerActions).toHaveLength(14);
    for (const type of ['C', 'O', 'S', 'A'] as const)
      for (const action of issuerActions) expect(may({ type }, action), `${type} ${action}`).toBe(false);
  });

  it('knows its actions', () => {
    expect(isAction('viewUsers')).toBe(true);
    expect(isAction('toString')).toBe(false);
    expect(isAction('')).toBe(false);
    expect(Object.keys(POLICY)).toEqual(ACTIONS);
  });
});
