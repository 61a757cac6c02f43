import type { TestProject } from 'vitest/node';
import { startProduct } from './product.ts';

/** Starts the built product once for all browser tests (see product.ts). */
export default async function setup(project: TestProject) {
  const product = await startProduct();
  // Users of the browser tests' own, made with the admin CLI while the server runs.
  const create = (...args: string[]) =>
    product.cli('user', 'create', '--password', 'Cardportal#2026', ...args);
  create('--user-id', 'e2elock01', '--email', 'lock@example.com');
  create('--user-id', 'e2eexpired01', '--email', 'expired@example.com', '--expired');
  project.provide('baseUrl', product.baseUrl);
  project.provide('dataDir', product.dataDir);
  project.provide('mailDir', product.mailDir);
  return () => product.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    mailDir: string;
  }
}
