import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { type Product, prepareDataDir, startProduct, suiteScale } from './product.ts';

/** Users of the browser tests' own, beside the demo data (lockout and expired-password specs). */
const E2E_USERS = [
  ['--user-id', 'e2elock01', '--email', 'lock@example.com'],
  ['--user-id', 'e2eexpired01', '--email', 'expired@example.com', '--expired'],
].map((args) => ['user', 'create', '--password', 'Cardportal#2026', ...args]);

/**
 * Starts the built product once per worker of the browser project (docs/testing.md): a spec file runs on
 * the product of its worker (`VITEST_POOL_ID`, see browser.ts), so files run side by side without one
 * file's users, locks or co-brands showing up in another's, and each product still serves its files one
 * after the other, as a single product served all of them before. Every product starts from a copy of
 * one data directory initialised here once (demo data and the users above), not from its own initdb.
 */
export default async function setup(project: TestProject) {
  // SUITE_SCALE (scripts/suite-at-scale.ts) runs each spec as several copies; a copy gets products of its
  // own, as a new spec file of its own would find a product where nobody made its users before.
  const count = Math.max(1, project.config.maxWorkers) * suiteScale();
  const template = prepareDataDir(E2E_USERS);
  const products: Product[] = await Promise.all(
    Array.from({ length: count }, () => startProduct({}, { from: template })),
  );
  project.provide(
    'products',
    products.map(({ baseUrl, dataDir, mailDir }) => ({ baseUrl, dataDir, mailDir })),
  );
  return async () => {
    await Promise.all(products.map((product) => product.stop()));
    rmSync(template, { recursive: true, force: true });
  };
}

/** What a spec needs of a running product: where it answers, its data and its mail. */
export type ProductAddress = Pick<Product, 'baseUrl' | 'dataDir' | 'mailDir'>;

declare module 'vitest' {
  export interface ProvidedContext {
    /** One running product per worker of the browser project, in worker order (then per copy). */
    products: ProductAddress[];
  }
}
