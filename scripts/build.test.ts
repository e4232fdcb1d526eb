// `node scripts/build.mjs` (what `npm start` and `npm run build` run) on a copy of this repository: two builds at
// once both succeed and only one of them builds; with nothing changed a build does nothing, quickly; a rebuild
// never leaves apps/server/dist or apps/web/dist missing long enough for a starting server to notice.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'argus-build-'));
const copy = join(scratch, 'repo');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * What the build reads: the workspaces (without their dist/), the build scripts, the root configs. node_modules
 * links to this checkout's packages, except @argus/*, which point into the copy the way npm's workspace links do.
 */
function makeCopy() {
  const skip = /(^|\/)(node_modules|dist|data)(\/|$)/;
  for (const path of [
    'apps',
    'packages',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.base.json',
  ]) {
    cpSync(join(repo, path), join(copy, path), {
      recursive: true,
      filter: (source) => !skip.test(source.slice(repo.length + 1)),
    });
  }
  mkdirSync(join(copy, 'scripts'));
  for (const name of ['build.mjs', 'build-web.mjs', 'build-server.mjs', 'build-once.mjs']) {
    cpSync(join(repo, 'scripts', name), join(copy, 'scripts', name));
  }
  mkdirSync(join(copy, 'node_modules/@argus'), { recursive: true });
  for (const name of readdirSync(join(repo, 'node_modules'))) {
    if (name === '@argus' || (name.startsWith('.') && name !== '.bin')) continue;
    symlinkSync(join(repo, 'node_modules', name), join(copy, 'node_modules', name));
  }
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(copy, group))) {
      symlinkSync(`../../${group}/${name}`, join(copy, 'node_modules/@argus', name));
    }
  }
}

interface Build {
  code: number | null;
  output: string;
  ms: number;
}

function build(): { done: Promise<Build>; running: () => boolean } {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/build.mjs'], {
    cwd: copy,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const done = new Promise<Build>((resolvePromise) =>
    child.on('close', (code) => {
      exited = true;
      resolvePromise({ code, output, ms: performance.now() - started });
    }),
  );
  return { done, running: () => !exited };
}

const serverDist = () => join(copy, 'apps/server/dist');
const webDist = () => join(copy, 'apps/web/dist');
/** What a starting server reads: its bundle, the migrations beside it, the web app it serves. */
const served = () => [
  join(serverDist(), 'server.js'),
  join(serverDist(), 'migrations'),
  join(webDist(), 'index.html'),
];
const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

describe('scripts/build.mjs', () => {
  beforeAll(makeCopy, 60_000);

  it('two builds at once both succeed, and only one of them builds', async () => {
    const [a, b] = await Promise.all([build().done, build().done]);
    expect(a.code, a.output).toBe(0);
    expect(b.code, b.output).toBe(0);
    const both = a.output + b.output;
    expect(count(both, /\[build:web\] built in/), both).toBe(1);
    expect(count(both, /\[build:server\] built in/), both).toBe(1);
    for (const path of served()) expect(existsSync(path), path).toBe(true);
    expect(readdirSync(join(serverDist(), 'migrations')).filter((name) => name.endsWith('.sql')).length).toBe(
      readdirSync(join(copy, 'packages/db/src/migrations')).filter((name) => name.endsWith('.sql')).length,
    );
    // No staging directory is left beside either output.
    expect(readdirSync(join(copy, 'apps/server')).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(readdirSync(join(copy, 'apps/web')).filter((name) => name.startsWith('.'))).toEqual([]);
    // Nor any lock file (they live in the temp directory, named after the checkout).
    const checkout = createHash('sha256').update(copy).digest('hex').slice(0, 16);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`argus-${checkout}-`))).toEqual([]);
  }, 300_000);

  it('with nothing changed, a build leaves both outputs alone and returns quickly', async () => {
    const before = served().map((path) => statSync(path).ino);
    const again = await build().done;
    expect(again.code, again.output).toBe(0);
    expect(again.output).toMatch(/\[build:web\] up to date \(\d+ ms\)/);
    expect(again.output).toMatch(/\[build:server\] up to date \(\d+ ms\)/);
    expect(served().map((path) => statSync(path).ino)).toEqual(before);
    console.log(
      `no-change build: ${Math.round(again.ms)} ms wall, ${again.output.trim().replace(/\n/g, '; ')}`,
    );
    // A real build of both takes 15 s or more here; the no-change one is a hash of the inputs and a node start.
    expect(again.ms).toBeLessThan(5_000);
  }, 60_000);

  it('rebuilds what changed while the previous output stays in place, with source maps that still resolve', async () => {
    const marker = `changed-${Date.now()}`;
    appendFileSync(join(copy, 'apps/server/src/server.ts'), `// ${marker}\n`);
    appendFileSync(join(copy, 'packages/protocol/src/index.ts'), `// ${marker}\n`);
    const before = served().map((path) => statSync(path).ino);
    const rebuild = build();
    // Missing once could be the instant between the two renames; missing 50 ms later is what broke a server.
    const gaps: string[] = [];
    while (rebuild.running()) {
      for (const path of served()) {
        if (!existsSync(path)) {
          await sleep(50);
          if (!existsSync(path)) gaps.push(path);
        }
      }
      await sleep(2);
    }
    const result = await rebuild.done;
    expect(result.code, result.output).toBe(0);
    expect(gaps).toEqual([]);
    expect(result.output).toMatch(/\[build:web\] built in/);
    expect(result.output).toMatch(/\[build:server\] built in/);
    const after = served().map((path) => statSync(path).ino);
    for (const [i, ino] of after.entries()) expect(ino, served()[i]).not.toBe(before[i]);

    const serverMap = JSON.parse(readFileSync(join(serverDist(), 'server.js.map'), 'utf8'));
    expect(JSON.stringify(serverMap.sourcesContent)).toContain(marker);
    const mapsToCheck = [
      join(serverDist(), 'server.js.map'),
      ...readdirSync(join(webDist(), 'assets'))
        .filter((name) => name.endsWith('.js.map'))
        .map((name) => join(webDist(), 'assets', name)),
    ];
    for (const mapFile of mapsToCheck) {
      const { sources } = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
      const missing = sources.filter((source) => !existsSync(resolve(dirname(mapFile), source)));
      expect(missing, mapFile).toEqual([]);
    }
  }, 300_000);
});
