#!/usr/bin/env node
// Import boundaries (docs/ARCHITECTURE.md, the direction of imports): runs dependency-cruiser with the rules of
// .dependency-cruiser.cjs over the workspaces' sources, e2e/, bench/ and fixtures/, and fails naming, for each
// violation, the file, the import as written and the rule. Offline; about 2-3 s.
//
//   node scripts/check-boundaries.mjs [--root <dir>]   (--root: check another checkout, e.g. a test's copy)
//
// Why the swc parser, and the patch below: dependency-cruiser parses TypeScript with the TypeScript compiler's
// JavaScript API (up to TypeScript 6) or with swc. This repository uses TypeScript 7, the native port, which has
// no such API, and with no parser for them dependency-cruiser would silently skip every .ts/.tsx file. So the
// config selects swc (@swc/core) — but dependency-cruiser 17 hands swc fixed parse options without `tsx`, and
// swc then fails on JSX. We turn `tsx` on for .tsx files only (in a .ts file `<T>value` is a cast, not JSX) by
// wrapping parseFileSync on the very @swc/core module object dependency-cruiser imports. After the cruise we
// also check that every source file was read, so a parser that goes missing fails the check instead of
// passing it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const rootFlag = process.argv.indexOf('--root');
const root = rootFlag === -1 ? repo : resolve(process.argv[rootFlag + 1] ?? '.');
const started = performance.now();

// dependency-cruiser and swc come from this script's own checkout, whichever tree is checked.
let cruiserMain;
let swc;
try {
  cruiserMain = fileURLToPath(import.meta.resolve('dependency-cruiser'));
  swc = createRequire(cruiserMain)('@swc/core');
} catch (error) {
  console.error(`check-boundaries: ${error instanceof Error ? error.message : error}\nRun npm install.`);
  process.exit(2);
}
const parseFileSync = swc.parseFileSync;
swc.parseFileSync = (file, options) =>
  parseFileSync.call(swc, file, { ...options, tsx: String(file).endsWith('.tsx') });
const { cruise } = await import(pathToFileURL(cruiserMain).href);

const config = createRequire(join(root, 'package.json'))('./.dependency-cruiser.cjs');

/** What is checked: each workspace's src/, and the repository's own test and bench code. */
const workspaces = ['apps', 'packages'].flatMap((group) =>
  existsSync(join(root, group))
    ? readdirSync(join(root, group))
        .map((name) => `${group}/${name}`)
        .filter((dir) => existsSync(join(root, dir, 'package.json')))
    : [],
);
const targets = [...workspaces.map((dir) => `${dir}/src`), 'e2e', 'bench', 'fixtures'].filter((dir) =>
  existsSync(join(root, dir)),
);

process.chdir(root);
let result;
try {
  ({ output: result } = await cruise(
    targets,
    { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden }, outputType: 'json' },
    {},
    {},
  ));
  if (typeof result === 'string') result = JSON.parse(result);
} catch (error) {
  console.error(
    `check-boundaries: dependency-cruiser failed: ${error instanceof Error ? error.stack : error}`,
  );
  process.exit(2);
}

// Every source file must have been read: dependency-cruiser leaves out files it has no parser for.
const sourceFile = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const excluded = new RegExp(config.options.exclude?.path ?? '(?!)');
function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) yield* files(path);
    else if (sourceFile.test(name)) yield relative(root, path).split('\\').join('/');
  }
}
const cruised = new Set(result.modules.map((module) => module.source));
const unread = targets
  .flatMap((dir) => [...files(join(root, dir))])
  .filter((f) => !excluded.test(f) && !cruised.has(f));
if (unread.length > 0) {
  console.error(
    `check-boundaries: dependency-cruiser did not read ${unread.length} source file(s), e.g. ${unread.slice(0, 3).join(', ')} — is @swc/core installed?`,
  );
  process.exit(2);
}

const comments = new Map(config.forbidden.map((rule) => [rule.name, rule.comment]));
const modules = new Map(result.modules.map((module) => [module.source, module]));
/** The import as written in the source (dependency-cruiser keeps a `node:` prefix apart), for `from` → `to`. */
function written(from, to) {
  const dependency = modules.get(from)?.dependencies.find((d) => d.resolved === to);
  return dependency ? `${dependency.protocol ?? ''}${dependency.module}` : to;
}

const violations = result.summary.violations
  .filter((v) => v.rule.severity === 'error')
  .sort(
    (a, b) =>
      a.rule.name.localeCompare(b.rule.name) || a.from.localeCompare(b.from) || a.to.localeCompare(b.to),
  );
const seconds = ((performance.now() - started) / 1000).toFixed(1);

if (violations.length > 0) {
  const lines = [];
  let rule;
  for (const v of violations) {
    if (v.rule.name !== rule) {
      rule = v.rule.name;
      lines.push('', `${rule}: ${comments.get(rule) ?? ''}`);
    }
    const module = written(v.from, v.to);
    // The file it resolved to, when that says more than the import (a relative path, a workspace's entry).
    const file =
      module === v.to || v.to.includes('node_modules/') || !existsSync(join(root, v.to)) ? '' : ` (${v.to})`;
    lines.push(`  ✖ ${v.from} imports '${module}'${file}  [${rule}]`);
    // A cycle is reported once, at one of its imports; the rest of the way round says where to cut it.
    if (v.cycle) lines.push(`      cycle: ${[v.from, ...v.cycle.map((step) => step.name)].join(' → ')}`);
  }
  console.error(
    `Import boundary violations (docs/ARCHITECTURE.md; rules in .dependency-cruiser.cjs): ${violations.length}\n${lines.join('\n')}\n`,
  );
  process.exit(1);
}
console.log(
  `Import boundaries: OK (${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} imports, ${seconds} s)`,
);
