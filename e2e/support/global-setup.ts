import type { TestProject } from 'vitest/node';
import { type Product, startProduct, suiteScale } from './product.ts';

/**
 * Starts the built product once per worker of the browser project (docs/testing.md): a spec file runs on
 * the product of its worker (`VITEST_POOL_ID`, see browser.ts), so files run side by side without one
 * file's users, locks or co-brands showing up in another's, and each product still serves its files one
 * after the other, as a single product served all of them before.
 */
export default async function setup(project: TestProject) {
  // SUITE_SCALE (scripts/suite-at-scale.ts) runs each spec as several copies; a copy gets products of its
  // own, as a new spec file of its own would find a product where nobody made its users before.
  const count = Math.max(1, project.config.maxWorkers) * suiteScale();
  // Side by side: each first start runs PGlite's initdb (a ~700 MB peak, DESIGN §2), a few GB in all.
  const products: Product[] = await Promise.all(Array.from({ length: count }, () => startProduct()));
  // Users of the browser tests' own, made with the admin CLI while the server runs.
  for (const product of products) {
    const create = (...args: string[]) =>
      product.cli('user', 'create', '--password', 'Cardportal#2026', ...args);
    create('--user-id', 'e2elock01', '--email', 'lock@example.com');
    create('--user-id', 'e2eexpired01', '--email', 'expired@example.com', '--expired');
  }
  project.provide(
    'products',
    products.map(({ baseUrl, dataDir, mailDir }) => ({ baseUrl, dataDir, mailDir })),
  );
  return async () => {
    await Promise.all(products.map((product) => product.stop()));
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
