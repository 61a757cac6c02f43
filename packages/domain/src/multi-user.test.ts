import { describe, expect, it } from 'vitest';
import { type AccessAsCaller, type AccessAsTarget, checkAccessAs } from './access-as-user.ts';
import { checkLinkCandidate, checkLinkSet, type LinkCandidate, MULTI_USER_MAX_ROLES } from './multi-user.ts';
import { mayGrantRole, mayHoldRole, newRoleBodySchema, type Permission } from './roles.ts';
import { USER_TYPE_CODES } from './user-types.ts';

const candidate = (over: Partial<LinkCandidate> = {}): LinkCandidate => ({
  type: 'A',
  status: 'Active',
  sso: false,
  loginType: 'pwd',
  issuerId: 1,
  companyMultiUser: true,
  roles: 0,
  linkedElsewhere: false,
  ...over,
});

describe('multi-user linking rules (seed 001 §4, §6, §8)', () => {
  it('links only company group administrators and below', () => {
    const linkable = USER_TYPE_CODES.filter(
      (type) =>
        checkLinkCandidate(candidate({ type, companyMultiUser: type === 'G' ? null : true })) === undefined,
    );
    expect(linkable.sort()).toEqual(['A', 'C', 'G', 'O', 'S']);
    expect(checkLinkCandidate(candidate({ type: 'Z' }))).toBe('multiUser.typeNotLinkable');
  });

  it.each([
    [{ status: 'Inactive' as const }, 'multiUser.notActive'],
    [{ status: 'Locked' as const }, 'multiUser.notActive'],
    [{ sso: true }, 'multiUser.sso'],
    [{ loginType: 'otp-2fa' }, 'multiUser.twoFactor'],
    [{ loginType: 'token' }, 'multiUser.twoFactor'],
    [{ companyMultiUser: false }, 'multiUser.companyDisabled'],
    [{ companyMultiUser: null }, 'multiUser.companyDisabled'],
    [{ linkedElsewhere: true }, 'multiUser.alreadyLinked'],
  ])('refuses %o with %s', (over, key) => {
    expect(checkLinkCandidate(candidate(over))).toBe(key);
  });

  it('a company group administrator needs no company of its own', () => {
    expect(checkLinkCandidate(candidate({ type: 'G', companyMultiUser: null }))).toBeUndefined();
  });

  it('checks the link as a whole: size, one group administrator, one issuer, 75 roles', () => {
    const m = (over: Partial<LinkCandidate> = {}) => candidate(over);
    expect(checkLinkSet([m()])).toBe('multiUser.tooFew');
    expect(checkLinkSet(Array.from({ length: 11 }, () => m()))).toBe('multiUser.tooMany');
    expect(checkLinkSet([m({ type: 'G' }), m({ type: 'G' })])).toBe('multiUser.oneGroupAdmin');
    expect(checkLinkSet([m({ type: 'G' }), m()])).toBeUndefined();
    expect(checkLinkSet([m({ issuerId: 1 }), m({ issuerId: 2 })])).toBe('multiUser.otherIssuer');
    expect(checkLinkSet([m({ issuerId: null }), m({ issuerId: null })])).toBe('multiUser.otherIssuer');
    expect(checkLinkSet([m({ roles: 40 }), m({ roles: MULTI_USER_MAX_ROLES - 40 })])).toBeUndefined();
    expect(checkLinkSet([m({ roles: 40 }), m({ roles: MULTI_USER_MAX_ROLES - 39 })])).toBe(
      'multiUser.tooManyRoles',
    );
  });
});

describe('access as user (seed 001 §6)', () => {
  const caller = (over: Partial<AccessAsCaller> = {}): AccessAsCaller => ({
    type: 'C',
    pk: 1,
    permissions: new Set<Permission>(['accessAsUser']),
    acting: false,
    ...over,
  });
  const target = (over: Partial<AccessAsTarget> = {}): AccessAsTarget => ({
    pk: 2,
    type: 'A',
    status: 'Active',
    linked: false,
    administered: true,
    optionOn: true,
    ...over,
  });

  it('lets a super user access a company administrator or below it administers', () => {
    for (const type of ['C', 'O', 'S', 'A'] as const)
      expect(checkAccessAs(caller({ type: 'G' }), target({ type }))).toBeUndefined();
    for (const type of ['G', 'H', 'I', 'Z'] as const)
      expect(checkAccessAs(caller({ type: 'Z' }), target({ type }))).toBe('accessAs.typeNotAllowed');
  });

  it.each([
    [caller({ permissions: new Set() }), target(), 'accessAs.notPermitted'],
    [caller({ acting: true }), target(), 'accessAs.alreadyActing'],
    [caller(), target({ pk: 1 }), 'accessAs.self'],
    [caller(), target({ administered: false }), 'accessAs.notAdministered'],
    [caller({ type: 'Z' }), target({ type: 'A' }), 'accessAs.notAdministered'],
    [caller(), target({ status: 'Locked' }), 'accessAs.notActive'],
    [caller(), target({ linked: true }), 'accessAs.linkedUser'],
    [caller(), target({ optionOn: false }), 'accessAs.optionOff'],
  ])('refuses (%#) with its reason', (c, t, key) => {
    expect(checkAccessAs(c, t)).toBe(key);
  });
});

describe('roles', () => {
  it('company-side administrators grant only permissions they hold', () => {
    const own = new Set<Permission>(['linkUsers']);
    expect(mayGrantRole('C', own, ['linkUsers'])).toBe(true);
    expect(mayGrantRole('C', own, ['linkUsers', 'accessAsUser'])).toBe(false);
    expect(mayGrantRole('G', new Set(), [])).toBe(true);
    expect(mayGrantRole('I', new Set(), ['peerUserModify', 'accessAsUser'])).toBe(true);
    expect(mayGrantRole('O', new Set<Permission>(['linkUsers']), [])).toBe(false);
    expect(mayGrantRole('A', new Set(), [])).toBe(false);
  });

  it('go only to active users', () => {
    expect(mayHoldRole('Active')).toBe(true);
    expect(mayHoldRole('Inactive')).toBe(false);
    expect(mayHoldRole('Locked')).toBe(false);
  });

  it('validate names, descriptions and permissions', () => {
    expect(newRoleBodySchema.safeParse({ name: ' Approver ', permissions: [] }).data).toEqual({
      name: 'Approver',
      description: '',
      permissions: [],
    });
    const bad = newRoleBodySchema.safeParse({
      name: 'x'.repeat(41),
      description: '<script>',
      permissions: ['linkUsers', 'linkUsers'],
    });
    expect(bad.error?.issues.map((i) => i.message).sort()).toEqual([
      'role.description.invalidCharacters',
      'role.name.tooLong',
      'role.permission.duplicate',
    ]);
  });
});
