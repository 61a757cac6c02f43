import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = process.env.PORTAL_DEV_BACKEND ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: '/sdportal/portalstatic/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The CSP forbids inline scripts: no module-preload polyfill is injected into index.html.
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    rollupOptions: {
      treeshake: {
        // packages/domain is side-effect free, but its zod schemas are top-level calls that Rollup
        // must otherwise keep: without this, zod (~25 KB gzip) lands on the sign-in page although the
        // portal uses none of it. See docs/portal.md (page budget).
        moduleSideEffects: (id) => !/[\\/](packages[\\/]domain|node_modules[\\/]zod)[\\/]/.test(id),
      },
    },
  },
  server: {
    // During `vite` development, the server's endpoints and assets come from a running apps/server.
    proxy: {
      '/sdportal/rest': server,
      '/heracles': server,
      '/sdportal/portalstatic/assets': server,
    },
  },
});
