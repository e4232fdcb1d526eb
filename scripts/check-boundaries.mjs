#!/usr/bin/env node
// Checks that imports point the way DESIGN.md §2 says:
//   protocol ← everything; engine ← ai, design-diff; apps/server wires packages; apps/web → protocol only;
//   no package imports an app; nobody reaches into another workspace's files by relative path.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Which workspaces each workspace may import. */
const allowed = {
  'packages/protocol': [],
  'packages/db': ['@argus/protocol'],
  'packages/engine': ['@argus/protocol'],
  'packages/ai': ['@argus/protocol', '@argus/engine'],
  'packages/design-diff': ['@argus/protocol', '@argus/engine'],
  'packages/cli': ['@argus/protocol', '@argus/server'],
  'apps/server': ['@argus/protocol', '@argus/db', '@argus/engine', '@argus/ai', '@argus/design-diff'],
  'apps/web': ['@argus/protocol'],
};
/** Node built-ins and server-only packages the browser bundle must never pull in. */
const webForbidden = [
  /^node:/,
  /^(fs|path|os|child_process|net|http|https|crypto|url|stream)$/,
  /^fastify/,
  /^pg$/,
];

const importRe =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) yield path;
  }
}

const problems = [];
for (const [workspace, deps] of Object.entries(allowed)) {
  const src = join(root, workspace, 'src');
  try {
    statSync(src);
  } catch {
    continue;
  }
  for (const file of files(src)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importRe)) {
      const spec = match[1] ?? match[2] ?? match[3];
      const where = relative(root, file);
      if (spec.startsWith('@argus/')) {
        const name = spec.split('/').slice(0, 2).join('/');
        if (!deps.includes(name)) problems.push(`${where}: ${workspace} may not import ${name}`);
      } else if (spec.startsWith('.')) {
        const target = relative(root, resolve(dirname(file), spec));
        const inside =
          target === workspace || target.startsWith(workspace + sep) || target.startsWith(`${workspace}/`);
        // Tests may use the repository's fixtures (the fixture website).
        const fixture = /\.test\.tsx?$/.test(file) && target.startsWith('fixtures/');
        if (!inside && !fixture) problems.push(`${where}: relative import '${spec}' leaves ${workspace}`);
      } else if (workspace === 'apps/web' && webForbidden.some((re) => re.test(spec))) {
        problems.push(`${where}: browser code may not import '${spec}'`);
      }
    }
  }
}

if (problems.length) {
  console.error(`Import boundary violations (DESIGN.md §2):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('Import boundaries: OK');
