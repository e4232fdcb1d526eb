/**
 * For the browser tests of the export: an exported project written to a temporary directory and run
 * there with `npx playwright test --reporter=json`.
 *
 * Offline, `@playwright/test` is not installed into the temporary project: its node_modules links the
 * repository's `@playwright/test`, `playwright` and `playwright-core` (the same version the export's
 * package.json asks for), and `otpauth` for a TOTP login.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface PlaywrightVerdicts {
  /** Test title → passed. */
  verdicts: Map<string, boolean>;
  /** Test title → the parallel index of the worker that ran it (last try). */
  parallelIndex: Map<string, number>;
  errors: string[];
  ms: number;
}

interface JsonSuite {
  specs?: {
    title: string;
    tests?: {
      results?: { status: string; parallelIndex?: number; error?: { message?: string } }[];
    }[];
  }[];
  suites?: JsonSuite[];
}
interface JsonReport {
  suites?: JsonSuite[];
  errors?: { message?: string }[];
}

/**
 * Runs `npx playwright test --reporter=json` (and `args`) in the project directory, with `env` over
 * this process's environment (CHROMIUM_PATH, STEP_TIMEOUT_MS, the project's secrets).
 */
export async function runPlaywright(
  dir: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<PlaywrightVerdicts> {
  const started = Date.now();
  const child = spawn('npx', ['--no-install', 'playwright', 'test', '--reporter=json', ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a run that hangs is ended with everything npx started (workers, browsers).
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
      fail(new Error(`npx playwright test took over 120 s: ${err}`));
    }, 120_000);
    child.on('close', () => {
      clearTimeout(timer);
      done();
    });
  });
  let report: JsonReport;
  try {
    report = JSON.parse(out);
  } catch {
    throw new Error(
      `npx playwright test wrote no JSON report. stderr: ${err}\nstdout: ${out.slice(0, 2000)}`,
    );
  }
  const verdicts = new Map<string, boolean>();
  const parallelIndex = new Map<string, number>();
  const errors: string[] = (report.errors ?? []).map((e) => e.message ?? '');
  const walk = (suite: JsonSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const result = test.results?.at(-1);
        verdicts.set(spec.title, result?.status === 'passed');
        if (result?.parallelIndex !== undefined) parallelIndex.set(spec.title, result.parallelIndex);
        if (result?.status !== 'passed')
          errors.push(`${spec.title}: ${result?.error?.message ?? result?.status}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return { verdicts, parallelIndex, errors, ms: Date.now() - started };
}

/** Writes the export into a new temporary directory with @playwright/test linked in. */
export async function writeProject(files: { path: string; content: string }[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'argus-export-'));
  for (const file of files) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.content);
  }
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, '@playwright'), { recursive: true });
  await mkdir(join(modules, '.bin'), { recursive: true });
  await symlink(join(REPO, 'node_modules/@playwright/test'), join(modules, '@playwright/test'));
  for (const name of ['playwright', 'playwright-core', 'otpauth']) {
    if (existsSync(join(REPO, 'node_modules', name)))
      await symlink(join(REPO, 'node_modules', name), join(modules, name));
  }
  await symlink('../@playwright/test/cli.js', join(modules, '.bin/playwright'));
  return dir;
}
