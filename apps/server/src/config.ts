import { BlockList, isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { LIMITS } from '@cardportal/domain';
import { z } from 'zod';
import { type CardKey, parseCardKeys } from './kernel/card-vault.ts';

/**
 * Configuration, parsed once at start-up from the environment (DESIGN §3). Nothing else reads
 * process.env. A bad value stops start-up with one line naming the variable.
 */
const booleanFlag = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (['1', 'true', 'on', 'yes'].includes(v.toLowerCase())) return true;
      if (['0', 'false', 'off', 'no'].includes(v.toLowerCase())) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be 1/0, true/false or on/off` });
      return z.NEVER;
    });

const urlWithProtocols = (protocols: string[]) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      try {
        const url = new URL(v);
        if (!protocols.includes(url.protocol)) throw new Error('protocol');
        return v;
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be a ${protocols.join(' or ')} URL` });
        return z.NEVER;
      }
    });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:']),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']),
  PUBLIC_URL: urlWithProtocols(['http:', 'https:']),
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  DEMO: z.string().optional(),
  DEMO_PUBLIC: z.string().optional(),
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  SESSION_WARNING_MS: z.coerce.number().int().min(1000).max(86_400_000).default(LIMITS.sessionWarningMs),
  MAIL_FROM: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[^\r\n]+$/)
    .default('Card Portal <no-reply@cardportal.example>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CARD_DATA_KEYS: z.string().min(1).optional(),
  CARD_HASH_KEY: z.string().min(1).optional(),
  WORKERS: z.coerce.number().int().min(1).max(64).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  publicUrl: string;
  /** True when the public URL is https: cookies are Secure and HSTS is sent. */
  secure: boolean;
  nodeEnv: 'production' | 'development' | 'test';
  demo: boolean;
  rateLimits: boolean;
  sessionWarningMs: number;
  /** Server idle timeout: the warning delay plus the 80-second countdown. */
  sessionIdleMs: number;
  logLevel: string;
  /** Sender of every mail. */
  mailFrom: string;
  /** Where the built SPAs are. */
  portalDist: string;
  webDist: string;
  /** Where the text bundles are. */
  bundlesDir: string;
  migrationsDir: string;
  demoDir: string;
  /** Keys sealing full card numbers (`CARD_DATA_KEYS`, the first current), or undefined: see secrets.ts. */
  cardDataKeys: CardKey[] | undefined;
  /** Key of the card numbers' keyed hash (`CARD_HASH_KEY`, 32 bytes base64). */
  cardHashKey: Buffer | undefined;
  /**
   * Server processes on the one port (`WORKERS`, server.ts; docs/operations.md "Workers"): one per core
   * with PostgreSQL and Redis, one with the embedded database (it lives in one process) or without Redis.
   */
  workers: number;
  /** argon2id threads of each process: workers × threads fit the cores (at least one each). */
  hashThreads: number;
}

export class ConfigError extends Error {}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for an address only this machine reaches: 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

const repoRoot = path.resolve(new URL('.', import.meta.url).pathname, '../../..');

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue?.message ?? 'is invalid'} (got ${JSON.stringify(env[name] ?? '')})`,
    );
  }
  const e = parsed.data;
  const demoFlag = booleanFlag('DEMO', e.DATABASE_URL === undefined).safeParse(e.DEMO);
  if (!demoFlag.success) {
    throw new ConfigError(`Invalid configuration: DEMO must be 1 or 0 (got ${JSON.stringify(e.DEMO)})`);
  }
  const demoPublic = booleanFlag('DEMO_PUBLIC', false).safeParse(e.DEMO_PUBLIC);
  if (!demoPublic.success) {
    throw new ConfigError(
      `Invalid configuration: DEMO_PUBLIC must be 1 or 0 (got ${JSON.stringify(e.DEMO_PUBLIC)})`,
    );
  }
  // The demo users' password is published (README): in production, demo data is for this machine alone
  // unless the operator says otherwise.
  if (demoFlag.data && e.NODE_ENV === 'production' && !isLoopbackHost(e.HOST) && !demoPublic.data) {
    throw new ConfigError(
      `Invalid configuration: DEMO_PUBLIC must be 1 to serve the demo data (published passwords) on HOST ${e.HOST}, which is not loopback; or set DEMO=0, or HOST=127.0.0.1`,
    );
  }
  const cardDataKeys = e.CARD_DATA_KEYS === undefined ? undefined : parseCardKeys(e.CARD_DATA_KEYS);
  if (typeof cardDataKeys === 'string')
    throw new ConfigError(`Invalid configuration: CARD_DATA_KEYS ${cardDataKeys}`);
  const cardHashKey = e.CARD_HASH_KEY === undefined ? undefined : Buffer.from(e.CARD_HASH_KEY, 'base64');
  if (cardHashKey && cardHashKey.length !== 32)
    throw new ConfigError('Invalid configuration: CARD_HASH_KEY must be 32 bytes (base64)');
  // Card numbers of a production PostgreSQL deployment are sealed under keys the database does not hold
  // (docs/card-data.md); the embedded database and the demo keep stand-in keys in the database.
  if (e.NODE_ENV === 'production' && e.DATABASE_URL && !demoFlag.data && (!cardDataKeys || !cardHashKey))
    throw new ConfigError(
      'Invalid configuration: CARD_DATA_KEYS and CARD_HASH_KEY must be set in production with DATABASE_URL (the demo and the embedded database keep their keys in the database)',
    );
  // Several processes share nothing but PostgreSQL and Redis: the embedded database lives in one, and
  // rate limits and throttles count across processes only in Redis (each would count on its own).
  if (e.WORKERS !== undefined && e.WORKERS > 1 && !e.DATABASE_URL)
    throw new ConfigError(
      `Invalid configuration: WORKERS must be 1 with the embedded database, which lives in one process (got ${e.WORKERS}); set DATABASE_URL for more`,
    );
  if (e.WORKERS !== undefined && e.WORKERS > 1 && !e.REDIS_URL)
    throw new ConfigError(
      `Invalid configuration: WORKERS above 1 needs REDIS_URL, where the processes share rate limits and throttles (got ${e.WORKERS})`,
    );
  const cores = availableParallelism();
  const workers = e.WORKERS ?? (e.DATABASE_URL && e.REDIS_URL ? cores : 1);
  const publicUrl = (
    e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`
  ).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    publicUrl,
    secure: publicUrl.startsWith('https:'),
    nodeEnv: e.NODE_ENV,
    demo: demoFlag.data,
    rateLimits: e.RATE_LIMITS === 'on',
    sessionWarningMs: e.SESSION_WARNING_MS,
    sessionIdleMs: e.SESSION_WARNING_MS + LIMITS.sessionCountdownSeconds * 1000,
    logLevel: e.LOG_LEVEL,
    mailFrom: e.MAIL_FROM,
    portalDist: path.join(repoRoot, 'apps/portal/dist'),
    webDist: path.join(repoRoot, 'apps/web/dist'),
    bundlesDir: path.join(repoRoot, 'packages/i18n/bundles'),
    migrationsDir: path.join(repoRoot, 'apps/server/drizzle'),
    demoDir: path.join(repoRoot, 'apps/server/demo'),
    cardDataKeys,
    cardHashKey,
    workers,
    hashThreads: Math.max(1, Math.floor(cores / workers)),
  };
}
