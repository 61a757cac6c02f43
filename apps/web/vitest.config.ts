import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { MAIN_GROUP, WORKERS } from '../../vitest.shared.ts';

export default defineConfig({
  plugins: [react()],
  root: import.meta.dirname,
  test: {
    name: 'web',
    environment: 'happy-dom',
    // Each file in a VM context of its own (isolated as in a fork), in worker threads that keep happy-dom
    // and the imported modules between files: the screens' tests took 95 CPU-seconds in forks, 55 here
    // (docs/testing.md).
    pool: 'vmThreads',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // In the main group of the root config (its projects share one pool of WORKERS workers).
    sequence: MAIN_GROUP,
    maxWorkers: WORKERS,
    // Screens render the whole application (react-aria, TanStack) in happy-dom; findBy* waits up to 5 s
    // (test/support.tsx), so a test gets more than that.
    testTimeout: 20_000,
    unstubGlobals: true,
  },
});
