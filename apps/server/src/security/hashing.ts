import { hashInPool, verifyInPool } from './hash-pool.ts';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet parameters (19 MiB, 2 iterations, 1 lane).
 * Hashes run in a pool of worker threads at a lower priority than the event loop (hash-pool.ts), so
 * hashing never blocks it, nor starves it when sign-ins saturate the cores.
 */
export const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashSecret(secret: string): Promise<string> {
  return hashInPool(secret, ARGON2_OPTIONS);
}

export async function verifySecret(encoded: string, secret: string): Promise<boolean> {
  try {
    return await verifyInPool(encoded, secret);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/**
 * Verifies against a hash of a random value, so that a sign-in for an unknown or locked user costs the
 * same time as one for a known user (DESIGN §5).
 */
export async function verifyDummy(secret: string): Promise<false> {
  dummy ??= hashSecret(`dummy-${Math.random()}-${Date.now()}`);
  await verifySecret(await dummy, secret);
  return false;
}
