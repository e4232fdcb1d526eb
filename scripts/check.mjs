#!/usr/bin/env node
// `npm run check` (and the first half of `npm test`): the type checks, the linter, the import boundaries
// and, with --build, the build, run side by side rather than one after another: each leaves cores idle
// part of the time (start-up, reading files, a single-threaded phase), so together they finish sooner
// (docs/TESTING.md has the figures). Each one's output is printed whole when it ends, with its time, so
// nothing interleaves; the exit code is 1 when any of them failed.
//
//   node scripts/check.mjs [--build]
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => resolve(root, 'node_modules/.bin', name);

const jobs = [
  { name: 'types (server and packages)', command: bin('tsc'), args: ['-p', 'tsconfig.json'] },
  { name: 'types (web app)', command: bin('tsc'), args: ['-p', 'apps/web/tsconfig.json'] },
  { name: 'lint', command: bin('biome'), args: ['check', '.'] },
  { name: 'import boundaries', command: process.execPath, args: ['scripts/check-boundaries.mjs'] },
];
if (process.argv.includes('--build')) {
  jobs.push({ name: 'build', command: process.execPath, args: ['scripts/build.mjs'] });
}

const started = performance.now();
const results = await Promise.all(
  jobs.map(
    (job) =>
      new Promise((done) => {
        const t0 = performance.now();
        let output = '';
        const child = spawn(job.command, job.args, { cwd: root, env: process.env });
        child.stdout.on('data', (chunk) => {
          output += chunk;
        });
        child.stderr.on('data', (chunk) => {
          output += chunk;
        });
        let finished = false;
        const finish = (code) => {
          if (finished) return; // 'error' and then 'close' for a command that could not start
          finished = true;
          const seconds = ((performance.now() - t0) / 1000).toFixed(1);
          const mark = code === 0 ? 'ok' : `FAILED (exit ${code})`;
          process.stdout.write(`\n[check] ${job.name}: ${mark} in ${seconds} s\n${output.trimEnd()}\n`);
          done(code === 0);
        };
        child.on('error', (error) => {
          output += `${error.message}\n`;
          finish(127);
        });
        child.on('close', (code) => finish(code ?? 1));
      }),
  ),
);
const failed = jobs.filter((_, i) => !results[i]).map((job) => job.name);
const total = ((performance.now() - started) / 1000).toFixed(1);
if (failed.length > 0) {
  console.error(`\n[check] failed: ${failed.join(', ')} (${total} s)`);
  process.exit(1);
}
console.log(`\n[check] all passed in ${total} s`);
