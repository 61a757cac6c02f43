/**
 * The peer of the sign-in benchmark (issue 19): better-auth — the most used TypeScript authentication
 * framework — as a team would set it up instead of ours: its own Node handler on node:http, PostgreSQL
 * through its Kysely dialect (a `pg` pool of the same size as ours), sessions in the database (no cookie
 * cache, no secondary storage), e-mail and password sign-in hashing with the product's argon2id
 * parameters through @node-rs/argon2, its rate limiter off (one loopback address drives the load, as
 * ours runs with RATE_LIMITS=off). Run by bench/peer.ts as its own process with the Node that runs the
 * benchmark (which strips the types): `PEER_DATABASE_URL=… PORT=… node bench/better-auth-server.ts`.
 * Creates its tables with better-auth's own migrations, then answers; prints `ready` once listening.
 */
import http from 'node:http';
import { hash, verify } from '@node-rs/argon2';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { toNodeHandler } from 'better-auth/node';
import pg from 'pg';

/** The product's argon2id parameters (apps/server/src/security/hashing.ts ARGON2_OPTIONS). */
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const port = Number(process.env.PORT);
const baseURL = `http://127.0.0.1:${port}`;
const pool = new pg.Pool({ connectionString: process.env.PEER_DATABASE_URL, max: 10 });

const options = {
  baseURL,
  secret: 'bench-peer-secret-0123456789abcdef0123456789abcdef',
  database: pool,
  trustedOrigins: [baseURL],
  telemetry: { enabled: false },
  rateLimit: { enabled: false },
  emailAndPassword: {
    enabled: true,
    password: {
      hash: (password: string) => hash(password, ARGON2),
      verify: ({ hash: encoded, password }: { hash: string; password: string }) => verify(encoded, password),
    },
  },
};
const auth = betterAuth(options);
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const server = http.createServer(toNodeHandler(auth));
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1', () => console.log('ready'));
const stop = () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
