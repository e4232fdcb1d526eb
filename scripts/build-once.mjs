// What keeps `npm start` safe to run twice from one checkout (scripts/build-server.mjs, scripts/build-web.mjs,
// scripts/setup.mjs): a build runs only when a hash of its inputs differs from the one stamped into its output,
// the output directory is replaced by a rename (never emptied in place, which a server starting meanwhile found
// half-written), and a lock per checkout lets one process build while the others wait and then find it done.
// Node built-ins only: setup.mjs uses the lock before node_modules exists.
import { createHash } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** File in each output directory holding the hash of the inputs it was built from. */
export const STAMP_FILE = '.build-stamp';

/** A lock older than this is taken as abandoned even if its pid is alive (containers reuse pids). */
const LOCK_MAX_AGE_MS = 15 * 60_000;

/** Test files cannot change a bundle, and rebuilding whenever one is edited would slow every start. */
const IGNORED = /(^|\/)(node_modules|dist)$|\.test\.tsx?$/;

const toPosix = (path) => path.split(sep).join('/');

/** Expands `*` path segments (`packages/*\/src`) against the file system; missing paths expand to nothing. */
function expand(root, pattern) {
  let paths = [''];
  for (const segment of pattern.split('/')) {
    paths = paths.flatMap((base) => {
      if (segment !== '*') return [base ? `${base}/${segment}` : segment];
      const dir = join(root, base);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .sort()
        .map((name) => (base ? `${base}/${name}` : name));
    });
  }
  return paths.filter((path) => existsSync(join(root, path)));
}

/**
 * sha256 over the relative path and content of every file under `inputs` (files or directories relative to `root`,
 * `*` allowed as a whole segment), in sorted order, plus `extra` (settings that change the output, such as env).
 */
export function hashInputs(root, inputs, extra = '') {
  const files = new Set();
  const walk = (path) => {
    if (IGNORED.test(path)) return;
    const stat = statSync(join(root, path));
    if (stat.isDirectory()) {
      for (const name of readdirSync(join(root, path))) walk(`${path}/${name}`);
    } else if (stat.isFile()) {
      files.add(path);
    }
  };
  for (const pattern of inputs) for (const path of expand(root, pattern)) walk(path);
  const hash = createHash('sha256').update(`${extra}\0`);
  for (const path of [...files].sort()) {
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(root, path)))
      .update('\0');
  }
  return hash.digest('hex');
}

function readStamp(outDir) {
  try {
    return readFileSync(join(outDir, STAMP_FILE), 'utf8').trim();
  } catch {
    return null;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Runs `fn` while holding the lock `name` for the checkout at `root`. The lock lives in the OS temp directory, so
 * it works before node_modules exists and never shows in `git status`; one left by a killed process (its pid gone,
 * or older than 15 minutes) is taken over.
 */
export async function withLock(root, name, fn, log = console.log) {
  const checkout = createHash('sha256').update(resolve(root)).digest('hex').slice(0, 16);
  // Files straight in the temp directory, not in a folder of their own: nothing is left once released.
  const lock = join(tmpdir(), `argus-${checkout}-${name}.lock`);
  const mine = `${lock}.${process.pid}.${Date.now()}`;
  const owner = JSON.stringify({ pid: process.pid, since: Date.now() });
  // A hard link appears whole or not at all, so a waiter never reads a half-written owner.
  writeFileSync(mine, owner);
  let reported = false;
  try {
    for (;;) {
      try {
        linkSync(mine, lock);
        break;
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
      }
      let held;
      try {
        held = JSON.parse(readFileSync(lock, 'utf8'));
      } catch {
        continue; // released between the link and the read
      }
      if (!isAlive(held.pid) || Date.now() - held.since > LOCK_MAX_AGE_MS) {
        rmSync(lock, { force: true });
        continue;
      }
      if (!reported) {
        log(`waiting for process ${held.pid}, which holds the ${name} lock`);
        reported = true;
      }
      await sleep(100);
    }
  } finally {
    rmSync(mine, { force: true });
  }
  try {
    return await fn();
  } finally {
    try {
      if (readFileSync(lock, 'utf8') === owner) unlinkSync(lock);
    } catch {
      // already taken over as abandoned
    }
  }
}

/**
 * Source maps name their sources relative to themselves; written one directory deeper (in the staging directory)
 * they must be rewritten to hold once the directory is moved to `finalDir`.
 */
function relocateSourceMaps(stagingDir, finalDir) {
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        visit(path);
        continue;
      }
      if (!entry.name.endsWith('.map')) continue;
      const map = JSON.parse(readFileSync(path, 'utf8'));
      const from = resolve(dir, map.sourceRoot ?? '');
      const to = join(finalDir, relative(stagingDir, dir));
      map.sources = map.sources.map((source) =>
        source === null || /^[a-z][a-z0-9+.-]*:/i.test(source) || isAbsolute(source)
          ? source
          : toPosix(relative(to, resolve(from, source))),
      );
      if (map.sourceRoot !== undefined) map.sourceRoot = '';
      writeFileSync(path, JSON.stringify(map));
    }
  };
  visit(stagingDir);
}

/**
 * Builds `outDir` with `build(dir)` unless its stamp already matches the inputs' hash. `build` writes into a fresh
 * directory `.<name>-build-<pid>/<name>` beside `outDir` (a directory named like the output, so .gitignore's
 * `dist/` covers it, at one level deeper, which relocateSourceMaps undoes); the old output is then renamed away and
 * the new one renamed into place, two renames a few microseconds apart. Returns whether it built.
 */
export async function buildOnce({ root, label, outDir, inputs, extra = '', build, log = console.log }) {
  const started = performance.now();
  const ms = () => `${Math.round(performance.now() - started)} ms`;
  const say = (message) => log(`[build:${label}] ${message}`);
  if (readStamp(outDir) === hashInputs(root, inputs, extra)) {
    say(`up to date (${ms()})`);
    return false;
  }
  return withLock(
    root,
    `build-${label}`,
    async () => {
      // Hashed again under the lock: another process may have built these very sources while this one waited.
      const hash = hashInputs(root, inputs, extra);
      if (readStamp(outDir) === hash) {
        say(`up to date, built by another process (${ms()})`);
        return false;
      }
      const parent = dirname(outDir);
      const name = basename(outDir);
      // Under the lock no other build is running here, so any staging directory is left from a killed one.
      for (const entry of readdirSync(parent)) {
        if (entry.startsWith(`.${name}-build-`))
          rmSync(join(parent, entry), { recursive: true, force: true });
      }
      const staging = join(parent, `.${name}-build-${process.pid}`);
      const next = join(staging, name);
      mkdirSync(next, { recursive: true });
      try {
        await build(next);
        relocateSourceMaps(next, outDir);
        writeFileSync(join(next, STAMP_FILE), `${hash}\n`);
        // Retried because a build that took over a lock it judged abandoned may swap in between.
        for (let attempt = 0; ; attempt++) {
          mkdirSync(join(staging, `old${attempt}`));
          try {
            renameSync(outDir, join(staging, `old${attempt}`, name));
          } catch (error) {
            if (error.code !== 'ENOENT') throw error;
          }
          try {
            renameSync(next, outDir);
            break;
          } catch (error) {
            if (attempt >= 3 || !['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
          }
        }
      } finally {
        rmSync(staging, { recursive: true, force: true });
      }
      say(`built in ${ms()} → ${toPosix(relative(root, outDir))}`);
      return true;
    },
    say,
  );
}
