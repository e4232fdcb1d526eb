// `npm run check:boundaries` on a copy of this repository: the unmodified copy passes, and each kind of violation,
// planted in its own copy, fails naming the file, the import and the rule.
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const script = join(repo, 'scripts', 'check-boundaries.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'argus-boundaries-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const workspaces = ['apps', 'packages'].flatMap((group) =>
  readdirSync(join(repo, group))
    .map((name) => `${group}/${name}`)
    .filter((dir) => existsSync(join(repo, dir, 'package.json'))),
);

/**
 * A copy of what the check reads: the config, the package.json files, the workspaces' sources, e2e/, bench/ and
 * fixtures/. Its node_modules links to this checkout's packages, except @argus/*, which point into the copy the
 * way npm's workspace links do.
 */
function copyOfRepo(name: string): string {
  const root = join(scratch, name);
  const skip = /(^|\/)(node_modules|dist|data|artifacts)(\/|$)/;
  const copy = (path: string) =>
    cpSync(join(repo, path), join(root, path), {
      recursive: true,
      filter: (src) => !skip.test(relative(repo, src)),
    });
  for (const path of ['package.json', '.dependency-cruiser.cjs', 'e2e', 'bench', 'fixtures']) copy(path);
  for (const dir of workspaces) {
    copy(`${dir}/package.json`);
    copy(`${dir}/src`);
  }
  mkdirSync(join(root, 'node_modules', '@argus'), { recursive: true });
  for (const entry of readdirSync(join(repo, 'node_modules'))) {
    if (entry === '@argus' || entry === '.bin' || entry.startsWith('.package-lock')) continue;
    symlinkSync(join(repo, 'node_modules', entry), join(root, 'node_modules', entry));
  }
  for (const dir of workspaces) {
    const { name: pkg } = JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8')) as {
      name: string;
    };
    symlinkSync(join('..', '..', dir), join(root, 'node_modules', pkg));
  }
  return root;
}

function plant(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function editManifest(
  root: string,
  dir: string,
  edit: (manifest: {
    dependencies: Record<string, string>;
    exports?: unknown;
    main?: string;
    types?: string;
  }) => void,
) {
  const path = join(root, dir, 'package.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  edit(manifest);
  writeFileSync(path, JSON.stringify(manifest, null, 2));
}

interface Run {
  code: number;
  output: string;
}

function check(root: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, '--root', root], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/** The line the check prints for one violation: the file, the import as written, the rule. */
const line = (file: string, specifier: string, rule: string) =>
  new RegExp(
    `✖ ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} imports '${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'.*\\[${rule}\\]`,
  );

interface Case {
  name: string;
  rule: string;
  /** The file the check must name, the import as written in it. */
  file: string;
  specifier: string;
  /** Files to write (path → text), on top of the copy. */
  files?: Record<string, string>;
  /** An edit of the copy's package.json files. */
  manifests?: (root: string) => void;
}

const cases: Case[] = [
  {
    name: 'a web feature importing another feature',
    rule: 'no-cross-feature',
    file: 'apps/web/src/features/shell/planted-feature.ts',
    specifier: '../auth',
    files: { 'apps/web/src/features/shell/planted-feature.ts': "export * from '../auth';\n" },
  },
  {
    name: 'a web feature importing a file deep inside another feature',
    rule: 'no-cross-feature',
    file: 'apps/web/src/features/automation/planted-deep.tsx',
    specifier: '../sessions/model/planted-store',
    files: {
      'apps/web/src/features/sessions/model/planted-store.ts': 'export const store = 1;\n',
      'apps/web/src/features/automation/planted-deep.tsx':
        "import { store } from '../sessions/model/planted-store';\nexport const Store = () => <p>{store}</p>;\n",
    },
  },
  {
    name: 'shared web code importing a feature',
    rule: 'no-shared-to-feature',
    file: 'apps/web/src/lib/planted-shared.ts',
    specifier: '../features/auth',
    files: { 'apps/web/src/lib/planted-shared.ts': "export * from '../features/auth';\n" },
  },
  {
    name: 'a package importing the server app',
    rule: 'not-to-server-app',
    file: 'packages/engine/src/planted-server.ts',
    specifier: '@argus/server',
    files: { 'packages/engine/src/planted-server.ts': "export * from '@argus/server';\n" },
  },
  {
    name: 'a package importing a workspace name that resolves nowhere (the server app with no entry)',
    rule: 'not-to-unresolvable',
    file: 'packages/db/src/planted-unresolved.ts',
    specifier: '@argus/server',
    files: { 'packages/db/src/planted-unresolved.ts': "export * from '@argus/server';\n" },
    manifests: (root) =>
      editManifest(root, 'apps/server', (manifest) => {
        manifest.exports = {};
        delete manifest.main;
        delete manifest.types;
      }),
  },
  {
    name: 'protocol importing another workspace (a type-only import)',
    rule: 'direction-packages-protocol',
    file: 'packages/protocol/src/planted-direction.ts',
    specifier: '@argus/engine',
    files: {
      'packages/protocol/src/planted-direction.ts':
        "import type { Page } from '@argus/engine';\nexport type P = Page;\n",
    },
  },
  {
    name: 'the engine importing the planners',
    rule: 'direction-packages-engine',
    file: 'packages/engine/src/planted-direction.ts',
    specifier: '@argus/ai',
    files: { 'packages/engine/src/planted-direction.ts': "export * from '@argus/ai';\n" },
  },
  {
    name: 'db importing the engine',
    rule: 'direction-packages-db',
    file: 'packages/db/src/planted-direction.ts',
    specifier: '@argus/engine',
    files: { 'packages/db/src/planted-direction.ts': "export * from '@argus/engine';\n" },
  },
  {
    name: 'the web app importing a package other than protocol',
    rule: 'direction-apps-web',
    file: 'apps/web/src/lib/planted-direction.ts',
    specifier: '@argus/db',
    files: { 'apps/web/src/lib/planted-direction.ts': "export * from '@argus/db';\n" },
  },
  {
    name: 'a new workspace missing from the direction table',
    rule: 'direction-packages-extra',
    file: 'packages/extra/src/index.ts',
    specifier: '@argus/protocol',
    files: {
      'packages/extra/package.json': JSON.stringify({
        name: '@argus/extra',
        dependencies: { '@argus/protocol': '*' },
      }),
      'packages/extra/src/index.ts': "export * from '@argus/protocol';\n",
    },
  },
  {
    name: 'the server app importing the web app',
    rule: 'not-to-web-app',
    file: 'apps/server/src/planted-web.ts',
    specifier: '../../web/src/lib/cn',
    files: { 'apps/server/src/planted-web.ts': "export * from '../../web/src/lib/cn';\n" },
  },
  {
    name: 'a server feature importing the socket layer (a type-only import)',
    rule: 'server-features-not-to-ws',
    file: 'apps/server/src/automation/planted-ws.ts',
    specifier: '../ws/realtime-hub',
    files: {
      'apps/server/src/automation/planted-ws.ts':
        "import type { RealtimeHub } from '../ws/realtime-hub';\nexport type Hub = RealtimeHub;\n",
    },
  },
  {
    name: 'a server service importing a socket handler',
    rule: 'server-features-not-to-ws',
    file: 'apps/server/src/storage/planted-ws.ts',
    specifier: '../ws/handlers/automation',
    files: { 'apps/server/src/storage/planted-ws.ts': "export * from '../ws/handlers/automation';\n" },
  },
  {
    name: 'a route plugin importing the composition root (a type-only import)',
    rule: 'server-compose-at-the-top',
    file: 'apps/server/src/routes/planted-compose.ts',
    specifier: '../compose/serving',
    files: {
      'apps/server/src/routes/planted-compose.ts':
        "import type { Serving } from '../compose/serving';\nexport type Planted = Serving;\n",
    },
  },
  {
    name: 'scale-out code importing the composer of the worker role',
    rule: 'server-compose-at-the-top',
    file: 'apps/server/src/scale/planted-compose.ts',
    specifier: '../compose/worker',
    files: { 'apps/server/src/scale/planted-compose.ts': "export * from '../compose/worker';\n" },
  },
  {
    name: "a deep import of a package's file by name",
    rule: 'workspace-entry-only',
    file: 'apps/server/src/planted-deep-name.ts',
    specifier: '@argus/protocol/src/auth',
    files: { 'apps/server/src/planted-deep-name.ts': "export * from '@argus/protocol/src/auth';\n" },
  },
  {
    name: "a deep import of a package's file by relative path",
    rule: 'workspace-entry-only',
    file: 'apps/server/src/planted-deep-path.ts',
    specifier: '../../../packages/db/src/planted-internal',
    files: {
      'packages/db/src/planted-internal.ts': 'export const internal = 1;\n',
      'apps/server/src/planted-deep-path.ts': "export * from '../../../packages/db/src/planted-internal';\n",
    },
  },
  {
    name: 'the web app importing playwright-core',
    rule: 'web-browser-only',
    file: 'apps/web/src/lib/planted-playwright.ts',
    specifier: 'playwright-core',
    files: {
      'apps/web/src/lib/planted-playwright.ts':
        "import { chromium } from 'playwright-core';\nexport const c = chromium;\n",
    },
  },
  {
    name: 'the web app importing a node: built-in',
    rule: 'web-browser-only',
    file: 'apps/web/src/features/auth/planted-node.tsx',
    specifier: 'node:fs',
    files: {
      'apps/web/src/features/auth/planted-node.tsx':
        "import { readFileSync } from 'node:fs';\nexport const Planted = () => <p>{String(readFileSync)}</p>;\n",
    },
  },
  {
    name: 'the web app importing a bare Node built-in',
    rule: 'web-browser-only',
    file: 'apps/web/src/components/planted-path.ts',
    specifier: 'path',
    files: {
      'apps/web/src/components/planted-path.ts': "import path from 'path';\nexport const p = path;\n",
    },
  },
  {
    name: "an e2e test importing the server's internals",
    rule: 'e2e-no-server-internals',
    file: 'e2e/planted.e2e.test.ts',
    specifier: '../apps/server/src/app',
    files: { 'e2e/planted.e2e.test.ts': "export * from '../apps/server/src/app';\n" },
  },
  {
    name: 'a package importing an npm package it does not declare (the engine without playwright-core)',
    rule: 'no-undeclared-dependency',
    file: 'packages/engine/src/browser-pool.ts',
    specifier: 'playwright-core',
    manifests: (root) =>
      editManifest(root, 'packages/engine', (manifest) => {
        delete manifest.dependencies['playwright-core'];
      }),
  },
  {
    name: "a package importing one of the root's dev dependencies",
    rule: 'no-undeclared-dependency',
    file: 'packages/protocol/src/planted-ws.ts',
    specifier: 'ws',
    files: { 'packages/protocol/src/planted-ws.ts': "export * from 'ws';\n" },
  },
  {
    name: 'a package importing a workspace it does not declare',
    rule: 'no-undeclared-dependency',
    file: 'packages/ai/src/planted-undeclared.ts',
    specifier: '@argus/engine',
    files: { 'packages/ai/src/planted-undeclared.ts': "export * from '@argus/engine';\n" },
    manifests: (root) =>
      editManifest(root, 'packages/ai', (manifest) => {
        delete manifest.dependencies['@argus/engine'];
      }),
  },
  {
    name: 'package code reaching into fixtures/ by relative path',
    rule: 'workspace-self-contained',
    file: 'packages/engine/src/planted-fixture.ts',
    specifier: '../../../fixtures/site/serve',
    files: { 'packages/engine/src/planted-fixture.ts': "export * from '../../../fixtures/site/serve';\n" },
  },
  {
    name: 'an import that resolves to nothing',
    rule: 'not-to-unresolvable',
    file: 'packages/protocol/src/planted-missing.ts',
    specifier: './no-such-file',
    files: { 'packages/protocol/src/planted-missing.ts': "export * from './no-such-file';\n" },
  },
];

/**
 * A cycle of three files, closed by a type-only import. dependency-cruiser reports a cycle once, at whichever of
 * its imports it meets first, so the test accepts any of the three and checks the whole way round.
 */
const cycle: Record<string, string> = {
  'packages/db/src/planted-cycle/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
  'packages/db/src/planted-cycle/b.ts': "import { c } from './c';\nexport const b = c;\n",
  'packages/db/src/planted-cycle/c.ts':
    "import type { a } from './a';\nexport const c: typeof a | null = null;\n",
};
const cycleFiles = Object.keys(cycle);

/** Imports the rules allow, planted beside the violations: none of them may be reported. */
const legal: Record<string, string> = {
  'apps/web/src/app/planted-legal.tsx':
    "import { AppLayout } from '../features/shell';\nexport const L = AppLayout;\n",
  'apps/web/src/features/shell/planted-legal.ts':
    "export * from '../../components/button';\nexport * from '../../lib/cn';\nexport * from './sidebar';\n",
  'apps/server/src/planted-legal.ts': "export * from '@argus/ai';\nexport * from '@argus/db';\n",
  'apps/server/src/comparison/planted-legal.ts': "export * from '../realtime/user-channel';\n",
  'apps/server/src/ws/handlers/planted-legal.ts':
    "export * from '../../automation/automation-service';\nexport * from '../../realtime/user-channel';\n",
  'apps/server/src/testing/planted-legal.ts': "export * from '../compose/worker';\n",
  'apps/server/src/scale/planted-legal.api.test.ts':
    "export * from '../compose/worker';\nexport * from '../app-services';\nimport 'vitest';\n",
  'packages/engine/src/planted-legal.test.ts':
    "export * from '../../../fixtures/site/serve';\nimport 'vitest';\n",
  'e2e/planted-legal.e2e.test.ts':
    "export * from '../apps/server/src/testing/spawn-server';\nexport * from '../fixtures/site/serve';\nexport * from '@argus/engine';\n",
};

const legalFiles = Object.keys(legal);
/** Each violation the check printed, as [file, import, rule]. */
const reported = (output: string) =>
  [...output.matchAll(/✖ (\S+) imports '([^']+)'.*\[(\S+)\]/g)].map(([, file, specifier, rule]) => ({
    file,
    specifier,
    rule,
  }));

describe('npm run check:boundaries', () => {
  // Two runs of the real command (a few seconds each): the unmodified copy, and a copy with every case planted
  // (each in its own file) beside the legal imports. One isolated case shows a single violation fails the run.
  const runs: Promise<[Run, Run, Run]> = Promise.all([
    check(copyOfRepo('clean')),
    (() => {
      const root = copyOfRepo('planted');
      for (const { files, manifests } of cases) {
        plant(root, files ?? {});
        manifests?.(root);
      }
      plant(root, cycle);
      plant(root, legal);
      return check(root);
    })(),
    (() => {
      const root = copyOfRepo('single');
      plant(root, { 'apps/web/src/features/shell/planted-single.ts': "export * from '../auth';\n" });
      return check(root);
    })(),
  ]);
  const timeout = 120_000;

  it(
    'passes the unmodified repository',
    async () => {
      const [clean] = await runs;
      expect(clean.output).toMatch(/Import boundaries: OK \(\d+ modules/);
      expect(clean.code).toBe(0);
    },
    timeout,
  );

  it(
    'fails on a single violation, naming the file, the import and the rule',
    async () => {
      const [, , single] = await runs;
      expect(single.code).toBe(1);
      expect(reported(single.output)).toEqual([
        {
          file: 'apps/web/src/features/shell/planted-single.ts',
          specifier: '../auth',
          rule: 'no-cross-feature',
        },
      ]);
    },
    timeout,
  );

  it.each(cases)(
    'fails on $name, naming $rule',
    async ({ rule, file, specifier }) => {
      const [, planted] = await runs;
      expect(planted.code).toBe(1);
      expect(planted.output).toMatch(line(file, specifier, rule));
    },
    timeout,
  );

  it(
    'fails on a cycle of imports (one of them type-only), naming no-cycle and the whole way round',
    async () => {
      const [, planted] = await runs;
      expect(planted.code).toBe(1);
      const cycles = reported(planted.output).filter(({ rule }) => rule === 'no-cycle');
      expect(cycles).toHaveLength(1);
      expect(cycleFiles).toContain(cycles[0].file);
      const way = planted.output.match(/^ +cycle: (.*)$/m)?.[1].split(' → ') ?? [];
      expect(way).toHaveLength(4);
      expect(way[0]).toBe(cycles[0].file);
      expect(way.at(-1)).toBe(way[0]);
      // The way round follows the imports: a → b → c → a, from wherever it starts.
      const start = cycleFiles.indexOf(way[0]);
      expect(way.slice(0, 3)).toEqual([0, 1, 2].map((i) => cycleFiles[(start + i) % 3]));
    },
    timeout,
  );

  it(
    'reports only the planted violations, none of the legal imports beside them',
    async () => {
      const [, planted] = await runs;
      const violations = reported(planted.output);
      expect(violations.filter(({ file }) => legalFiles.includes(file))).toEqual([]);
      // Besides the planted files, only the imports that the edited package.json files no longer declare.
      const undeclared = (file: string, specifier: string) =>
        (file.startsWith('packages/engine/') && specifier === 'playwright-core') ||
        (file.startsWith('packages/ai/') && specifier === '@argus/engine');
      const plantedFiles = new Set([...cases.map((c) => c.file), ...cycleFiles]);
      expect(
        violations.filter(
          ({ file, specifier, rule }) =>
            !plantedFiles.has(file) && !(rule === 'no-undeclared-dependency' && undeclared(file, specifier)),
        ),
      ).toEqual([]);
    },
    timeout,
  );
});
