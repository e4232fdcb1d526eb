// Import boundaries of docs/ARCHITECTURE.md ("Packages and the direction of imports"), checked by dependency-cruiser.
// Run it with `npm run check:boundaries` (scripts/check-boundaries.mjs): that script lets dependency-cruiser's
// swc parser read .tsx files, which the bare `depcruise` command cannot do here (see the script's header).
//
// Paths below are relative to the repository root and are matched against *resolved* files, so a rule holds
// whether an import is written as `@argus/engine`, as a relative path, or as `import type`.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/** Which workspaces each workspace may import (docs/ARCHITECTURE.md). The server app wires everything but the web app. */
const ALLOWED = {
  'packages/protocol': [],
  'packages/db': ['packages/protocol'],
  'packages/engine': ['packages/protocol'],
  'packages/ai': ['packages/protocol', 'packages/engine'],
  'packages/design-diff': ['packages/protocol', 'packages/engine'],
  'packages/playwright-export': ['packages/protocol'],
  'packages/cli': ['packages/protocol'],
  'apps/web': ['packages/protocol'],
  'apps/server': [
    'packages/protocol',
    'packages/db',
    'packages/engine',
    'packages/ai',
    'packages/design-diff',
    'packages/playwright-export',
  ],
};

/** npm packages that only run in Node: the browser bundle must never pull one in (nor a Node built-in). */
const NODE_ONLY_PACKAGES = [
  'playwright',
  'playwright-core',
  'fastify',
  '@fastify/[^/]+',
  'pg',
  'ws',
  '@node-rs/[^/]+',
  '@electric-sql/pglite',
  'drizzle-orm',
  'tsx',
];

/** A Node-only package, installed (node_modules/...) or unresolved (the bare name). */
const NODE_ONLY = `(${NODE_ONLY_PACKAGES.join('|')})(/|$)`;

const TEST_FILE = '\\.(api\\.|browser\\.|e2e\\.)?test\\.tsx?$';
const reEscape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The workspaces on disk (apps/*, packages/* with a package.json), with their package.json. */
const workspaces = ['apps', 'packages'].flatMap((group) =>
  existsSync(join(__dirname, group))
    ? readdirSync(join(__dirname, group))
        .map((name) => `${group}/${name}`)
        .filter((dir) => existsSync(join(__dirname, dir, 'package.json')))
        .map((dir) => ({
          dir,
          manifest: JSON.parse(readFileSync(join(__dirname, dir, 'package.json'), 'utf8')),
        }))
    : [],
);
const dirOfPackage = Object.fromEntries(workspaces.map(({ dir, manifest }) => [manifest.name, dir]));

/**
 * One rule per workspace: the workspace packages it may import (ALLOWED). Imports of the apps are the
 * business of not-to-server-app and not-to-web-app. A workspace missing from ALLOWED may import none.
 */
/**
 * Workspaces whose tests may import more than their code (ALLOWED): the Playwright export's browser test
 * compares the exported project's verdicts with the engine's own runner on the same app.
 */
const TEST_ALLOWED = {
  'packages/playwright-export': ['packages/engine'],
};

const directionRule = (dir, allowed, from) => {
  const names = (allowed ?? []).map((target) => `@argus/${target.split('/')[1]}`);
  return {
    name: `direction-${dir.replace('/', '-')}`,
    severity: 'error',
    comment: allowed
      ? `${dir} may import ${names.length ? `only ${names.join(' and ')}` : 'no other workspace'} (docs/ARCHITECTURE.md, the direction of imports).`
      : `${dir} is not in ALLOWED of .dependency-cruiser.cjs: add it, with the workspaces docs/ARCHITECTURE.md lets it import.`,
    from,
    to: {
      path: '^packages/[^/]+/',
      pathNot: [`^${reEscape(dir)}/`, ...(allowed ?? []).map((t) => `^${reEscape(t)}/`)],
    },
  };
};

/**
 * One rule per workspace: the workspace packages it may import (ALLOWED). Imports of the apps are the
 * business of not-to-server-app and not-to-web-app. A workspace missing from ALLOWED may import none.
 */
const directionRules = workspaces.flatMap(({ dir }) => {
  const allowed = ALLOWED[dir];
  const forTests = TEST_ALLOWED[dir];
  if (!forTests) return [directionRule(dir, allowed, { path: `^${reEscape(dir)}/` })];
  return [
    directionRule(dir, allowed, { path: `^${reEscape(dir)}/`, pathNot: TEST_FILE }),
    directionRule(dir, [...(allowed ?? []), ...forTests], { path: `^${reEscape(dir)}/.*${TEST_FILE}` }),
  ];
});

const UNDECLARED =
  "A workspace imports only what its own package.json declares (dependencies, or devDependencies for tooling): add the package there. Tests may also use the root's vitest.";

/**
 * One rule per workspace: a workspace package it may import (ALLOWED) must also be declared in its own
 * package.json. (dependency-cruiser checks npm packages against the nearest package.json itself, but counts an
 * import that resolves into the monorepo as local.)
 */
const declaredWorkspaceRules = workspaces.flatMap(({ dir, manifest }) => {
  const declared = new Set(
    Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).map((name) => dirOfPackage[name]),
  );
  const undeclared = (ALLOWED[dir] ?? []).filter((target) => !declared.has(target));
  if (undeclared.length === 0) return [];
  return [
    {
      name: 'no-undeclared-dependency',
      severity: 'error',
      comment: UNDECLARED,
      from: { path: `^${reEscape(dir)}/` },
      to: { path: `^(${undeclared.map(reEscape).join('|')})/` },
    },
  ];
});

module.exports = {
  forbidden: [
    {
      name: 'no-cross-feature',
      severity: 'error',
      comment:
        'A web feature (apps/web/src/features/<feature>/) may not import another feature: move what both need to src/components, src/lib or src/hooks, or compose the features in src/app.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'no-shared-to-feature',
      severity: 'error',
      comment:
        'Shared web code (src/components, src/lib, src/hooks) may not import a feature or src/app: features build on shared code, not the other way round.',
      from: { path: '^apps/web/src/(components|lib|hooks)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'server-features-not-to-ws',
      severity: 'error',
      comment:
        'Server business code (src/automation, conversation, comparison, activity, runs, auth, storage, security, limits, settings, realtime) may not import the socket layer (src/ws/): it reaches sockets through the UserChannel of src/realtime/user-channel.ts, and the socket handlers (src/ws/handlers/) call the services, not the other way round (docs/ARCHITECTURE.md, the direction of imports).',
      from: {
        path: '^apps/server/src/(automation|conversation|comparison|activity|runs|auth|storage|security|limits|settings|realtime)/',
      },
      to: { path: '^apps/server/src/ws/' },
    },
    {
      name: 'server-compose-at-the-top',
      severity: 'error',
      comment:
        'The composition root (apps/server/src/compose/) builds the server, so nothing it builds may import it: only the entry points (src/app.ts, server.ts, worker.ts), the test helpers (src/testing/) and tests do. A route plugin or the socket gateway takes the types it needs from src/app-services.ts (which compose implements), a service from its own folder.',
      from: {
        path: '^apps/server/src/',
        pathNot: [
          '^apps/server/src/compose/',
          '^apps/server/src/(app|server|worker)\\.ts$',
          '^apps/server/src/testing/',
          TEST_FILE,
        ],
      },
      to: { path: '^apps/server/src/compose/' },
    },
    ...directionRules,
    {
      name: 'not-to-server-app',
      severity: 'error',
      comment:
        'Nothing imports the server app (@argus/server): it is the top of the graph. e2e tests and benchmarks start it through apps/server/src/testing/.',
      from: { pathNot: '^(apps/server|e2e|bench)/' },
      to: { path: '^(apps/server/|@argus/server(/|$))' },
    },
    {
      name: 'e2e-no-server-internals',
      severity: 'error',
      comment:
        "e2e tests and benchmarks drive the server from outside: they may import its public test helpers (apps/server/src/testing/) and the fixture site, not the server's internals.",
      from: { path: '^(e2e|bench)/' },
      to: { path: '^(apps/server/|@argus/server(/|$))', pathNot: '^apps/server/src/testing/' },
    },
    {
      name: 'not-to-web-app',
      severity: 'error',
      comment:
        'Nothing imports the web app (@argus/web); the server serves its build output, not its source.',
      from: { pathNot: '^apps/web/' },
      to: { path: '^(apps/web/|@argus/web(/|$))' },
    },
    {
      name: 'workspace-entry-only',
      severity: 'error',
      comment:
        "Import a workspace package by its name only (e.g. '@argus/protocol'), never a file inside it ('@argus/protocol/src/...' or a relative path): its src/index.ts is its public surface.",
      from: { path: '^((apps|packages)/[^/]+/|[^/]+/)' },
      to: {
        path: '^packages/[^/]+/',
        pathNot: ['^$1', '^packages/[^/]+/src/index\\.ts$', '^packages/[^/]+/src/testing/index\\.ts$'],
      },
    },
    {
      name: 'testing-only-in-tests',
      severity: 'error',
      comment:
        "A package's test utilities ('@argus/ai/testing': scripted servers, fakes) are for tests, benchmarks and fixtures only, never for the product's code.",
      from: {
        pathNot: [
          '\\.test\\.ts$',
          '^e2e/',
          '^bench/',
          '^mutation/',
          '^fixtures/',
          '^packages/[^/]+/src/testing/',
        ],
      },
      to: { path: '^packages/[^/]+/src/testing/' },
    },
    {
      name: 'workspace-entry-only',
      severity: 'error',
      comment:
        "Import a workspace package by its name only (e.g. '@argus/protocol'), never a file inside it ('@argus/protocol/src/...' or a relative path): its src/index.ts is its public surface.",
      from: {},
      to: { couldNotResolve: true, path: '^@argus/[^/]+/.' },
    },
    {
      name: 'web-browser-only',
      severity: 'error',
      comment:
        'The web app runs in the browser: no Node built-in (node:*, fs, path, ...) and no Node-only package (playwright-core, fastify, pg, ws, ...).',
      from: { path: '^apps/web/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'web-browser-only',
      severity: 'error',
      comment:
        'The web app runs in the browser: no Node built-in (node:*, fs, path, ...) and no Node-only package (playwright-core, fastify, pg, ws, ...).',
      from: { path: '^apps/web/src/' },
      to: { path: [`(^|/)node_modules/${NODE_ONLY}`, `^${NODE_ONLY}`] },
    },
    {
      name: 'workspace-self-contained',
      severity: 'error',
      comment:
        'A workspace does not reach into the repository around it by relative path (e2e/, bench/, scripts/, fixtures/); only its tests may use the fixture site (fixtures/).',
      from: { path: '^(apps|packages)/[^/]+/', pathNot: TEST_FILE },
      to: { path: '^(e2e|bench|scripts|fixtures)/' },
    },
    {
      name: 'workspace-self-contained',
      severity: 'error',
      comment:
        'A workspace does not reach into the repository around it by relative path (e2e/, bench/, scripts/, fixtures/); only its tests may use the fixture site (fixtures/).',
      from: { path: `^(apps|packages)/[^/]+/.*${TEST_FILE}` },
      to: { path: '^(e2e|bench|scripts)/' },
    },
    {
      name: 'no-undeclared-dependency',
      severity: 'error',
      comment: UNDECLARED,
      from: { path: '^(apps|packages)/[^/]+/', pathNot: TEST_FILE },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'no-undeclared-dependency',
      severity: 'error',
      comment: UNDECLARED,
      from: { path: TEST_FILE },
      to: {
        dependencyTypes: ['npm-no-pkg', 'npm-unknown'],
        pathNot: '(^|/)node_modules/(vitest|@vitest/[^/]+)/',
      },
    },
    ...declaredWorkspaceRules,
    {
      name: 'no-cycle',
      severity: 'error',
      comment:
        'Imports may not go round in a circle, type-only imports included: a cycle makes the load order decide what is still undefined, and its files can only be understood (and moved) together. Move what both sides need to a module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        "The import resolves to no file: a typo, a missing file, a package that is not installed, or a workspace whose package.json exports no entry (e.g. '@argus/server').",
      from: {},
      to: { couldNotResolve: true, pathNot: '^@argus/[^/]+/.' },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    // Each file's own package.json decides what it may import (npm-no-pkg otherwise), not the root's.
    combinedDependencies: false,
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '^e2e/artifacts/' },
    enhancedResolveOptions: {
      // Honour the workspaces' `exports` maps, so '@argus/protocol/src/x' does not resolve.
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.mts', '.js', '.mjs', '.cjs', '.jsx', '.json'],
    },
  },
};
