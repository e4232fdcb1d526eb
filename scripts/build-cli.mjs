// Builds the `argus` command line (packages/cli, docs/CI.md) into packages/cli/dist/argus.mjs: one ES module
// with everything in it (the protocol's schemas, zod), so it runs with plain Node 20 and no node_modules, in
// this checkout (`npx argus`, through packages/cli/bin/argus.mjs) or copied into any CI image. Rebuilt only
// when its inputs changed (scripts/build-once.mjs): `npm run setup` runs it, in well under a second when
// nothing changed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOnce } from './build-once.mjs';

const root = resolve(import.meta.dirname, '..');

await buildOnce({
  root,
  label: 'cli',
  outDir: resolve(root, 'packages/cli/dist'),
  inputs: [
    'packages/cli/src',
    'packages/cli/package.json',
    'packages/protocol/src',
    'packages/protocol/package.json',
    'package-lock.json',
    'scripts/build-cli.mjs',
    'scripts/build-once.mjs',
  ],
  async build(outdir) {
    const { build } = await import('esbuild');
    const { version } = JSON.parse(readFileSync(resolve(root, 'packages/cli/package.json'), 'utf8'));
    await build({
      absWorkingDir: root,
      entryPoints: { argus: 'packages/cli/src/main.ts' },
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      banner: { js: '#!/usr/bin/env node' },
      define: { __ARGUS_CLI_VERSION__: JSON.stringify(version) },
      logLevel: 'warning',
    });
  },
});
