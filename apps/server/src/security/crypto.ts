import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random bytes for ids, drawn from the CSPRNG 4 KiB at a time (as Node's randomUUID does): one
 * `randomBytes` call per id cost about as much as the rest of making it (issue 19). Bytes handed out
 * are zeroed in the pool, so it never holds an id that is in use.
 */
const ID_POOL_BYTES = 4096;
let idPool = Buffer.alloc(0);
let idPoolOffset = 0;

/** A new opaque id: 32 random bytes, base64url (43 characters). */
export function randomId(): string {
  if (idPoolOffset + 32 > idPool.length) {
    idPool = randomBytes(ID_POOL_BYTES);
    idPoolOffset = 0;
  }
  const id = idPool.toString('base64url', idPoolOffset, idPoolOffset + 32);
  idPool.fill(0, idPoolOffset, idPoolOffset + 32);
  idPoolOffset += 32;
  return id;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * The secret's KeyObject, made once per key: `createHmac` with a Buffer key builds a new KeyObject on
 * every call, four times the cost of the HMAC itself, and a sign-in computes several (CSRF tokens,
 * keyed hashes; issue 19).
 */
const keyObjects = new WeakMap<Buffer, KeyObject>();
export function hmacKey(key: Buffer): KeyObject {
  let object = keyObjects.get(key);
  if (!object) {
    object = createSecretKey(key);
    keyObjects.set(key, object);
  }
  return object;
}

/** Keyed hash (HMAC-SHA256) of a value, hex. */
export function keyedHash(key: Buffer, purpose: string, value: string): string {
  return createHmac('sha256', hmacKey(key)).update(purpose).update('\0').update(value).digest('hex');
}

/** Maps bytes onto alphanumerics (rejection-free, modulo bias is negligible for 32-byte input per char). */
export function toAlphanumeric(bytes: Buffer, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[(bytes[i % bytes.length] ?? 0) % ALNUM.length];
  return out;
}

/** A derived alphanumeric token, e.g. the sec-token of a session (20 characters, portal spec §9). */
export function derivedToken(key: Buffer, purpose: string, value: string, length: number): string {
  const mac = createHmac('sha256', hmacKey(key)).update(purpose).update('\0').update(value).digest();
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

/**
 * A short text sealed with AES-256-GCM under `key`: `iv.tag.ciphertext`, base64 each. `aad` binds it to
 * its use (a value sealed for one purpose does not open for another). Soft-token secrets (without aad)
 * and identity providers' client secrets are sealed so; card numbers have their own format with key ids
 * (kernel/card-vault.ts).
 */
export function sealText(key: Buffer, plain: string, aad?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad));
  const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), enc].map((b) => b.toString('base64')).join('.');
}

/** Opens what sealText sealed with the same key and aad; throws when it was altered. */
export function openText(key: Buffer, sealed: string, aad?: string): string {
  const [iv, tag, enc] = sealed.split('.').map((p) => Buffer.from(p, 'base64'));
  if (!iv || !tag || !enc) throw new Error('malformed sealed text');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(enc), decipher.final()]).toString('utf8');
}
