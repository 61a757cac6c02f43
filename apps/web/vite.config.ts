import optimizeLocales from '@react-aria/optimize-locales-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { ARIA_LANGUAGES } from './src/lib/aria-locales.ts';

export default defineConfig({
  base: '/app/',
  // react-aria ships its strings in 34 locales: keep only the application's languages.
  plugins: [react(), optimizeLocales.vite({ locales: [...ARIA_LANGUAGES] })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The CSP forbids inline scripts: no module-preload polyfill is injected into index.html.
    modulePreload: { polyfill: false },
    target: 'es2022',
    rollupOptions: {
      treeshake: {
        moduleSideEffects: (id) => !/[\\/](packages[\\/]domain|node_modules[\\/]zod)[\\/]/.test(id),
      },
    },
  },
});
