#!/usr/bin/env node
// The `argus` command in this repository (`npx argus …`): runs the bundle that `npm run setup` (and
// `npm start`, `npm test`, `npm run build`) builds from packages/cli/src. The bundle itself,
// packages/cli/dist/argus.mjs, needs nothing but Node 20: copy it anywhere to use it outside a checkout.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/argus.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write(
    'argus: the command line is not built yet: run `npm run setup` in the Argus checkout\n',
  );
  process.exit(2);
}
await import(bundle.href);
