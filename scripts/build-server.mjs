// Builds the server for production: one ES module bundle of apps/server/src/server.ts with the workspace
// packages (@argus/*, TypeScript sources) inlined and every npm dependency left to node_modules, so
// `npm start` runs plain `node` with no runtime transpiler. Output: apps/server/dist (gitignored), rebuilt
// only when its inputs changed and swapped in whole (scripts/build-once.mjs), so a second `npm start` from
// the same checkout neither rebuilds nor pulls the bundle from under a server that is starting.
import { cp } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buildOnce } from './build-once.mjs';

const root = resolve(import.meta.dirname, '..');

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

await buildOnce({
  root,
  label: 'server',
  outDir: resolve(root, 'apps/server/dist'),
  // packages/db/src holds the SQL migrations; the lock file pins esbuild and what the bundle imports.
  inputs: [
    'apps/server/src',
    'apps/server/package.json',
    'packages/*/src',
    'packages/*/package.json',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'scripts/build-server.mjs',
    'scripts/build-once.mjs',
  ],
  async build(outdir) {
    // Loaded only when building: the up-to-date check stays a hash and nothing more.
    const { build } = await import('esbuild');
    await build({
      absWorkingDir: root,
      // The server, the worker (`npm run worker`, docs/DEPLOYMENT.md), and the administrator's CLI
      // (`npm run user:add`), which its tests run built too.
      entryPoints: {
        server: 'apps/server/src/server.ts',
        worker: 'apps/server/src/worker.ts',
        'user-add': 'apps/server/src/cli/user-add.ts',
        // The thread that owns the embedded database, found beside whichever bundle opens it
        // (packages/db/src/pglite-thread/thread.ts).
        'pglite-thread/worker': 'packages/db/src/pglite-thread/worker.ts',
      },
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
  },
});
