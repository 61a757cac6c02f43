import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/app/',
  plugins: [react()],
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
