// Bundles the server and the CLI into dist/. Workspace packages are bundled from source; every other
// package stays in node_modules (native addons, PGlite's wasm files).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server.ts', 'src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@cardportal/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
