import { randomBytes } from 'node:crypto';
import { openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/config.ts';
import { type Database, migrate, openPglite, openPostgres } from '../../src/db/client.ts';
import { serverSecrets } from '../../src/db/schema.ts';
import { loadDemoData } from '../../src/demo/load.ts';
import { loadSecrets } from '../../src/kernel/secrets.ts';

/**
 * The test databases' template (docs/testing.md): migrated and loaded with the demo data once per run,
 * then copied for every test server — `CREATE DATABASE … TEMPLATE` on PostgreSQL, a data-directory dump
 * (`dumpDataDir`) that PGlite starts from on the embedded database. A fresh PGlite cluster costs an
 * initdb (3–7 s on 2 cores) plus the migrations and the demo data (2–3 s); starting from the dump costs
 * under one second. Every test still gets a database of its own.
 */
export const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

async function fill(database: Database): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: tmpdir(), DEMO: '0' });
  await migrate(database, config.migrationsDir);
  const secrets = await loadSecrets(database.db, config);
  await loadDemoData(database.db, config, secrets);
  // Without its HMAC key the template hands each copy a key of its own (loadSecrets makes one), as each
  // installation has: budgets and decoys keyed by it must not collide between test databases sharing one
  // Redis. The token key stays: the demo's soft-token seeds are encrypted with it.
  await database.db.delete(serverSecrets).where(eq(serverSecrets.name, 'hmac'));
}

/** globalSetup of a server project: builds the template for its TEST_DB and provides where it is. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  if (kind === 'pglite') {
    const database = await openPglite('memory://');
    await fill(database);
    const dump = await database.pglite?.dumpDataDir('none');
    await database.close();
    if (!dump) throw new Error('PGlite did not dump its data directory');
    const file = path.join(tmpdir(), `cp-test-template-${suffix}.tar`);
    writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
    project.provide('dbTemplate', file);
    return async () => rmSync(file, { force: true });
  }
  const name = `cp_template_${suffix}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL at ${POSTGRES_ADMIN_URL} is unreachable: ${(error as Error).message}`);
  }
  await admin.query(`create database ${name}`);
  const database = openPostgres(POSTGRES_ADMIN_URL.replace(/\/test$/, `/${name}`), 2);
  try {
    await fill(database);
  } finally {
    await database.close();
  }
  await admin.end();
  project.provide('dbTemplate', name);
  return async () => {
    const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}

/** The template's dump as PGlite takes it. */
export const pgliteTemplate = (file: string): Promise<Blob> => openAsBlob(file);

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PGlite dump file or the PostgreSQL template database of this run. */
    dbTemplate: string;
  }
}
