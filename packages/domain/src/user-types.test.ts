import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_ACTIONS,
  type CallerScope,
  canAdminister,
  checkUserScope,
  creatableUserTypes,
  isInScope,
  isUserType,
  mayAdministerUser,
  USER_STATUSES,
  USER_TYPE_CODES,
  USER_TYPE_INFO,
  USER_TYPES,
  USER_TYPES_BY_LEVEL,
  type UserType,
} from './user-types.ts';

describe('user types (seed 001 §6)', () => {
  it('has the eight codes with their catalogue names, statuses and scopes', () => {
    expect(USER_TYPE_CODES).toEqual(['A', 'C', 'G', 'H', 'I', 'O', 'S', 'Z']);
    expect(USER_TYPES.I).toBe('Issuer Program Administrator');
    expect(USER_STATUSES).toEqual(['Active', 'Inactive', 'Locked']);
    expect(USER_TYPES_BY_LEVEL).toEqual(['Z', 'H', 'I', 'G', 'C', 'O', 'S', 'A']);
    expect(Object.fromEntries(USER_TYPE_CODES.map((t) => [t, USER_TYPE_INFO[t].scope]))).toEqual({
      A: 'own-cardholder',
      C: 'company',
      G: 'company-group',
      H: 'issuer-group',
      I: 'issuer',
      O: 'org-subtree',
      S: 'account-group',
      Z: 'system',
    });
    expect(isUserType('C')).toBe(true);
    expect(isUserType('X')).toBe(false);
    expect(isUserType('toString')).toBe(false);
  });
});

/** The decision table of docs/authorization.md: caller → types it may create (and modify). */
const CREATES: Record<UserType, string> = {
  Z: 'ZHIGCOSA',
  H: 'IGCOSA',
  I: 'GCOSA',
  G: 'COSA',
  C: 'OSA',
  O: '',
  S: '',
  A: '',
};
const VIEWS: Record<UserType, string> = {
  Z: 'ZHIGCOSA',
  H: 'HIGCOSA',
  I: 'IGCOSA',
  G: 'GCOSA',
  C: 'COSA',
  O: 'OA',
  S: 'SA',
  A: '',
};

describe('who may administer whom', () => {
  it.each(USER_TYPE_CODES)('%s matches the decision table', (caller) => {
    for (const target of USER_TYPE_CODES) {
      expect(canAdminister(caller, target, 'view'), `${caller} view ${target}`).toBe(
        VIEWS[caller].includes(target),
      );
      for (const action of ['create', 'modify'] as const) {
        expect(canAdminister(caller, target, action), `${caller} ${action} ${target}`).toBe(
          CREATES[caller].includes(target),
        );
      }
    }
  });
  it('lets an administrator with peer authority administer its own type', () => {
    expect(canAdminister('C', 'C', 'modify')).toBe(false);
    expect(canAdminister('C', 'C', 'modify', { peerAuthority: true })).toBe(true);
    expect(canAdminister('I', 'I', 'create', { peerAuthority: true })).toBe(true);
    expect(canAdminister('O', 'O', 'modify', { peerAuthority: true })).toBe(false);
    expect(canAdminister('A', 'A', 'modify', { peerAuthority: true })).toBe(false);
    expect(creatableUserTypes('C', { peerAuthority: true })).toEqual(['C', 'O', 'S', 'A']);
  });
  it('never lets a lower level act on a higher one, nor anyone but Z on Z', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...USER_TYPE_CODES),
        fc.constantFrom(...USER_TYPE_CODES),
        fc.constantFrom(...ADMIN_ACTIONS),
        fc.boolean(),
        (caller, target, action, peerAuthority) => {
          const allowed = canAdminister(caller, target, action, { peerAuthority });
          if (USER_TYPE_INFO[caller].level < USER_TYPE_INFO[target].level) expect(allowed).toBe(false);
          if (target === 'Z' && caller !== 'Z') expect(allowed).toBe(false);
          // create/modify implies view
          if (allowed) expect(canAdminister(caller, target, 'view', { peerAuthority })).toBe(true);
        },
      ),
    );
  });
});

describe('scope', () => {
  // Two issuers in one issuer group; company 10 (group 5) of issuer 1, company 20 of issuer 2.
  const acmeCardholder = {
    type: 'A' as const,
    issuerGroupId: 1,
    issuerId: 1,
    companyGroupId: 5,
    companyId: 10,
    orgPath: [103, 101, 100],
    accountGroupId: 7,
    cardholderId: 900,
    userPk: 50,
  };
  const norteCardholder = {
    ...acmeCardholder,
    issuerId: 2,
    companyGroupId: 6,
    companyId: 20,
    orgPath: [200],
  };
  const callers: Record<string, CallerScope> = {
    Z: { type: 'Z' },
    H: { type: 'H', issuerGroupId: 1 },
    I: { type: 'I', issuerId: 1 },
    G: { type: 'G', companyGroupId: 5 },
    C: { type: 'C', companyId: 10 },
    O: { type: 'O', companyId: 10, orgPointId: 101 },
    Oother: { type: 'O', companyId: 10, orgPointId: 102 },
    S: { type: 'S', companyId: 10, accountGroupId: 7 },
    A: { type: 'A', userPk: 50, cardholderId: 900 },
  };
  it('places a cardholder inside its issuer, group, company, org subtree and account group', () => {
    for (const [name, caller] of Object.entries(callers)) {
      expect(isInScope(caller, acmeCardholder), name).toBe(name !== 'Oother');
    }
  });
  it('keeps another issuer’s company out of every tenant-bound scope', () => {
    const other = { ...norteCardholder, userPk: 51, cardholderId: 901 };
    for (const [name, caller] of Object.entries(callers)) {
      // Only the system and the issuer group above both issuers reach across.
      expect(isInScope(caller, other), name).toBe(name === 'Z' || name === 'H');
    }
  });
  it('fails closed when the caller lacks its own scope column', () => {
    expect(isInScope({ type: 'C' }, { companyId: 10 })).toBe(false);
    expect(isInScope({ type: 'C', companyId: null }, { companyId: null })).toBe(false);
    expect(isInScope({ type: 'O', companyId: 10 }, acmeCardholder)).toBe(false);
    expect(isInScope({ type: 'A' }, {})).toBe(false);
  });
  it('combines type and scope', () => {
    expect(mayAdministerUser(callers.C!, acmeCardholder, 'modify')).toBe(true);
    expect(mayAdministerUser(callers.C!, { ...acmeCardholder, companyId: 20 }, 'modify')).toBe(false);
    expect(mayAdministerUser(callers.O!, acmeCardholder, 'view')).toBe(true);
    expect(mayAdministerUser(callers.O!, acmeCardholder, 'modify')).toBe(false);
    expect(mayAdministerUser(callers.C!, { type: 'I', issuerId: 1, companyId: 10 }, 'view')).toBe(false);
  });
  it('names the scope columns a type needs', () => {
    expect(checkUserScope('Z', {})).toEqual([]);
    expect(checkUserScope('C', { companyId: 3 })).toEqual([]);
    expect(checkUserScope('O', { companyId: 3 })).toEqual(['userScope.orgPointIdRequired']);
    expect(checkUserScope('A', {})).toEqual([
      'userScope.companyIdRequired',
      'userScope.cardholderIdRequired',
    ]);
  });
});
