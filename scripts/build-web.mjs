// Builds the web app with Vite into apps/web/dist (gitignored), which the server serves. Like the server bundle
// it is rebuilt only when its inputs changed and swapped in whole (scripts/build-once.mjs), so a running server
// never serves from a half-emptied directory.
import { resolve } from 'node:path';
import { buildOnce } from './build-once.mjs';

const root = resolve(import.meta.dirname, '..');
const webRoot = resolve(root, 'apps/web');

// What Vite reads besides the sources: its env files and VITE_-prefixed variables, and NODE_ENV.
const env = Object.entries(process.env)
  .filter(([name]) => name.startsWith('VITE_') || name === 'NODE_ENV')
  .sort(([a], [b]) => (a < b ? -1 : 1));

await buildOnce({
  root,
  label: 'web',
  outDir: resolve(webRoot, 'dist'),
  inputs: [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/tsconfig.json',
    'apps/web/package.json',
    'apps/web/.env',
    'apps/web/.env.local',
    'apps/web/.env.production',
    'apps/web/.env.production.local',
    'packages/*/src',
    'packages/*/package.json',
    'package.json',
    'package-lock.json',
    'tsconfig.base.json',
    'scripts/build-web.mjs',
    'scripts/build-once.mjs',
  ],
  extra: JSON.stringify(env),
  async build(outDir) {
    const { build } = await import('vite');
    await build({
      root: webRoot,
      configFile: resolve(webRoot, 'vite.config.ts'),
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  },
});
