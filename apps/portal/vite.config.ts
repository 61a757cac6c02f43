import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = process.env.PORTAL_DEV_BACKEND ?? 'http://127.0.0.1:8080';

export default defineConfig(({ isSsrBuild }) => ({
  base: '/sdportal/portalstatic/',
  plugins: [react()],
  // `vite build --ssr src/entry-server.tsx` (npm run build): the sign-in screen's server render, one
  // self-contained ES module (React included) that apps/server loads from dist/server at start-up.
  ssr: { noExternal: true, target: 'node' },
  // React's production build in the server render too, whatever NODE_ENV the server runs with.
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  build: {
    outDir: isSsrBuild ? 'dist/server' : 'dist',
    // The client build empties dist; the server build, which runs after it, only its own folder.
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
}));
