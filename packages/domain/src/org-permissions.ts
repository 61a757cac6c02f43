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
