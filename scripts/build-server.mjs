// Builds the server for production: one ES module bundle of apps/server/src/server.ts with the workspace
// packages (@argus/*, TypeScript sources) inlined and every npm dependency left to node_modules, so
// `npm start` runs plain `node` with no runtime transpiler. Output: apps/server/dist (gitignored).
import { cp, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const outdir = resolve(root, 'apps/server/dist');

/** npm packages stay external (resolved from node_modules at run time); workspace packages are bundled. */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@argus/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const started = performance.now();
await rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { server: 'apps/server/src/server.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: 'linked',
  plugins: [externalNpmPackages],
  logLevel: 'warning',
});
// Files read relative to a module (`import.meta.dirname`) are read relative to the bundle:
// packages/db's SQL migrations. (config.ts finds the repository root three levels up, which
// apps/server/dist is as much as apps/server/src.)
await cp(resolve(root, 'packages/db/src/migrations'), resolve(outdir, 'migrations'), { recursive: true });
console.log(`server built in ${Math.round(performance.now() - started)} ms → apps/server/dist/server.js`);
