import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  root: import.meta.dirname,
  test: {
    name: 'portal',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
    // Beside the embedded-database server tests (their group shares one pool of two workers).
    sequence: { groupOrder: 1 },
    maxWorkers: 2,
    unstubGlobals: true,
  },
});
