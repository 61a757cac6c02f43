import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new opaque id: 32 random bytes, base64url (43 characters). */
export function randomId(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Keyed hash (HMAC-SHA256) of a value, hex. */
export function keyedHash(key: Buffer, purpose: string, value: string): string {
  return createHmac('sha256', key).update(purpose).update('\0').update(value).digest('hex');
}

/** Maps bytes onto alphanumerics (rejection-free, modulo bias is negligible for 32-byte input per char). */
export function toAlphanumeric(bytes: Buffer, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[(bytes[i % bytes.length] ?? 0) % ALNUM.length];
  return out;
}

/** A derived alphanumeric token, e.g. the sec-token of a session (20 characters, portal spec §9). */
export function derivedToken(key: Buffer, purpose: string, value: string, length: number): string {
  const mac = createHmac('sha256', key).update(purpose).update('\0').update(value).digest();
  return toAlphanumeric(mac, length);
}

/**
 * The login descriptor's ldap id: `ldap-` and 16 alphanumerics. A user's comes from random bytes, an
 * unknown ID's decoy from a keyed hash, both through this one mapping, so no character or position
 * tells a decoy from a real id (docs/security.md, issue 13 item 2).
 */
export function ldapIdOf(bytes: Buffer): string {
  return `ldap-${toAlphanumeric(bytes, 16)}`;
}

/** A new user's ldap id. */
export function newLdapId(): string {
  return ldapIdOf(randomBytes(16));
}

export function randomDigits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(randomInt(10));
  return out;
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
