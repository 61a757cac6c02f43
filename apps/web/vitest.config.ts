import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  root: import.meta.dirname,
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // Beside the embedded-database server tests (their group shares one pool of two workers).
    sequence: { groupOrder: 1 },
    maxWorkers: 2,
    // Screens render the whole application (react-aria, TanStack) in happy-dom; findBy* waits up to 5 s
    // (test/support.tsx), so a test gets more than that.
    testTimeout: 20_000,
    unstubGlobals: true,
  },
});
