import type { UserType } from './user-types.ts';

/**
 * What each user type may do with organisation records (docs/authorization.md, "Organisations"), by
 * type alone; the server adds the scope (a company inside the caller's issuer group, issuer, company
 * group or company). Cardholders administer nothing.
 */
export type OrganisationAction =
  | 'viewCompanies'
  | 'createCompany'
  | 'modifyCompany'
  | 'deleteCompany'
  | 'viewStructure'
  | 'modifyStructure';

const ALLOWED: Record<OrganisationAction, readonly UserType[]> = {
  viewCompanies: ['Z', 'H', 'I', 'G', 'C', 'O', 'S'],
  createCompany: ['Z', 'H', 'I'],
  modifyCompany: ['Z', 'H', 'I', 'G'],
  deleteCompany: ['Z', 'H', 'I'],
  viewStructure: ['Z', 'H', 'I', 'G', 'C', 'O', 'S'],
  modifyStructure: ['Z', 'H', 'I', 'G', 'C'],
};

export function mayOnOrganisation(type: UserType, action: OrganisationAction): boolean {
  return ALLOWED[action].includes(type);
}

/**
 * What each user type may do with a company's cardholders, card accounts and account groups
 * (docs/authorization.md, "Accounts and cardholders"), by type alone; the server adds the scope: the
 * company inside the caller's scope, and inside it O the cardholders of its org subtree, S those of its
 * account group, A only its own cardholder. Z reads everything but maintains no company data (its
 * read-only notice, like isSystemReadOnly for the users of companies).
 */
export type AccountAction =
  | 'viewAccounts'
  | 'maintainAccounts'
  | 'viewAccountGroups'
  | 'maintainAccountGroups';

const ACCOUNT_ALLOWED: Record<AccountAction, readonly UserType[]> = {
  viewAccounts: ['Z', 'H', 'I', 'G', 'C', 'O', 'S', 'A'],
  maintainAccounts: ['H', 'I', 'G', 'C'],
  viewAccountGroups: ['Z', 'H', 'I', 'G', 'C', 'O', 'S'],
  maintainAccountGroups: ['H', 'I', 'G', 'C'],
};

export function mayOnAccounts(type: UserType, action: AccountAction): boolean {
  return ACCOUNT_ALLOWED[action].includes(type);
}

/** Company data a system administrator sees but does not change (the read-only notice). */
export function isAccountDataReadOnly(type: UserType): boolean {
  return type === 'Z';
}

/**
 * What each user type may do with issuers, issuer groups, company groups and program options
 * (docs/authorization.md, "Issuers and program options"), by type alone; the server adds the scope
 * (H: the issuers of its issuer group, I: its issuer, G: its company group). Z onboards banks (creates,
 * modifies, deactivates issuers and issuer groups); H keeps its group's issuers up to date and runs their
 * company groups and issuer-level options; I runs its issuer's company groups and its companies' options.
 * C, O, S and A have no access.
 */
export type IssuerAction =
  | 'viewIssuers'
  | 'createIssuer'
  | 'modifyIssuer'
  | 'changeIssuerStatus'
  | 'viewIssuerGroups'
  | 'maintainIssuerGroups'
  | 'viewCompanyGroups'
  | 'maintainCompanyGroups'
  | 'viewIssuerOptions'
  | 'modifyIssuerOptions'
  | 'viewCompanyOptions'
  | 'modifyCompanyOptions';

const ISSUER_ALLOWED: Record<IssuerAction, readonly UserType[]> = {
  viewIssuers: ['Z', 'H', 'I'],
  createIssuer: ['Z'],
  modifyIssuer: ['Z', 'H'],
  changeIssuerStatus: ['Z'],
  viewIssuerGroups: ['Z', 'H'],
  maintainIssuerGroups: ['Z'],
  viewCompanyGroups: ['Z', 'H', 'I', 'G'],
  maintainCompanyGroups: ['Z', 'H', 'I'],
  viewIssuerOptions: ['Z', 'H', 'I'],
  modifyIssuerOptions: ['Z', 'H'],
  viewCompanyOptions: ['Z', 'H', 'I', 'G'],
  modifyCompanyOptions: ['Z', 'H', 'I'],
};

export function mayOnIssuers(type: UserType, action: IssuerAction): boolean {
  return ISSUER_ALLOWED[action].includes(type);
}
