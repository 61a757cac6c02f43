import { describe, expect, it } from 'vitest';
import {
  companyOptionsBodySchema,
  groupNameBodySchema,
  issuerOptionsBodySchema,
  issuerPatchSchema,
  newIssuerBodySchema,
} from './api/issuers.ts';

describe('issuer contracts', () => {
  it('takes an issuer body with a group id or none and a co-brand', () => {
    expect(newIssuerBodySchema.safeParse({ number: '1', issuerGroupId: 3, cobrand: 'x' }).success).toBe(true);
    expect(newIssuerBodySchema.safeParse({ issuerGroupId: null }).success).toBe(true);
    expect(newIssuerBodySchema.safeParse({ issuerGroupId: 'three' }).success).toBe(false);
    expect(newIssuerBodySchema.safeParse({ issuerGroupId: 0 }).success).toBe(false);
  });

  it('never takes the number in a patch (it names the issuer)', () => {
    expect(issuerPatchSchema.parse({ number: '9', name1: 'A' })).toEqual({ name1: 'A' });
  });

  it('takes a group name body', () => {
    expect(groupNameBodySchema.parse({ name: 'x' })).toEqual({ name: 'x' });
    expect(groupNameBodySchema.safeParse({ name: 5 }).success).toBe(false);
  });

  it('takes only known option keys; issuer level on/off, company level on/off/inherit', () => {
    expect(issuerOptionsBodySchema.parse({ options: { twoFactor: true } })).toEqual({
      options: { twoFactor: true },
    });
    expect(issuerOptionsBodySchema.safeParse({ options: { twoFactor: null } }).success).toBe(false);
    expect(issuerOptionsBodySchema.safeParse({ options: { teleport: true } }).success).toBe(false);
    expect(companyOptionsBodySchema.parse({ options: { singleSignOn: null, accessAsUser: false } })).toEqual({
      options: { singleSignOn: null, accessAsUser: false },
    });
    expect(companyOptionsBodySchema.safeParse({ options: { twoFactor: 'on' } }).success).toBe(false);
    expect(companyOptionsBodySchema.safeParse({}).success).toBe(false);
  });

  it('refuses an option whose feature does not exist yet, naming it (issue 13 item 6)', () => {
    for (const schema of [issuerOptionsBodySchema, companyOptionsBodySchema]) {
      const res = schema.safeParse({ options: { twoFactor: true, wallet: false } });
      expect(res.success).toBe(false);
      expect(res.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['options.wallet', 'programOption.notOffered'],
      ]);
    }
  });
});
