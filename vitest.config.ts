import { defineConfig } from 'vitest/config';

// How the suite is split (docs/TESTING.md): by what a file holds, so the files that can run side by
// side do. `npm test` runs two groups in order: the in-process files (unit, api), then the files that
// drive Chromium or start server processes (api-browser, browser, e2e), one file at a time (a group's
// projects share one pool). The mutation, load and endurance projects are CI's
// (.ci/run), not part of `npm test`.

// Every project of `npm test` runs its files without isolation: a worker keeps the modules it
// imported (playwright-core, the server, zod schemas) for its next file. Re-importing them for each
// file cost more than the tests of the in-process group themselves (225 s against 144 s, measured).
// A file must therefore leave no module state behind: close what it opens in afterAll.

/** Test files side by side in the in-process group: one per core of the two-core machines we run on. */
const IN_PROCESS_WORKERS = 2;
/**
 * Browser-holding files at once, across api-browser, browser and e2e (one pool for the group). Two:
 * measured on 2 cores after issue 22, the group took 471 s against 752 s one at a time, every test
 * passing (docs/TESTING.md). An earlier try at two had a conversational e2e test time out beside
 * another file; a test that needs the machine to itself belongs in a CI-only project.
 */
const BROWSER_WORKERS = 2;

/**
 * API test files whose server drives Chromium (generation, runs, live browsers, captures) or that
 * start server processes: one at a time, after the in-process files. Every other *.api.test.ts runs
 * in the parallel `api` project; a new file that starts a browser belongs here.
 */
const BROWSER_API_TESTS = [
  'apps/server/src/automation/**/*.api.test.ts',
  'apps/server/src/comparison/**/*.api.test.ts',
  'apps/server/src/conversation/**/*.api.test.ts',
  'apps/server/src/diagnostics/case-recording.api.test.ts',
  'apps/server/src/diagnostics/trace-viewer.api.test.ts',
  'apps/server/src/projects/**/*.api.test.ts',
  // A regenerate runs a generation in Chromium.
  'apps/server/src/routes/suite-comparisons.api.test.ts',
  'apps/server/src/schedules/**/*.api.test.ts',
  'apps/server/src/runs/**/*.api.test.ts',
  // Visual checks run saved suites in Chromium.
  'apps/server/src/visual/**/*.api.test.ts',
  'apps/server/src/shutdown/**/*.api.test.ts',
  'apps/server/src/ws/shared-socket.api.test.ts',
  'apps/server/src/quotas.api.test.ts',
  'apps/server/src/server.api.test.ts',
  'apps/server/src/data-dir.api.test.ts',
];

/**
 * Scale-out on the machine's Redis and PostgreSQL (docs/DEPLOYMENT.md): worker processes, a killed
 * worker, a restarted Redis. CI's (`npm run test:scale` in .ci/run), not `npm test`'s: about 70 s of
 * processes starting and stopping, and `npm test` skips them without TEST_DATABASE_URL anyway.
 */
const SCALE_TESTS = ['apps/server/src/scale/**/*.api.test.ts'];

/**
 * Browser tests that explore a small app end to end to prove one explorer rule each, or run an
 * exported project under Playwright's own runner with several workers: minutes of two cores, so CI's
 * (`npm run test:browser-long` in .ci/run), not `npm test`'s, whose unit tests cover the same rules.
 */
const LONG_BROWSER_TESTS = [
  'packages/engine/src/behaviour/explorer/exploration-made.browser.test.ts',
  'packages/engine/src/behaviour/counters.browser.test.ts',
  'packages/engine/src/behaviour/mark-all.browser.test.ts',
  'packages/engine/src/behaviour/search-variants.browser.test.ts',
  'packages/engine/src/behaviour/server-toggle.browser.test.ts',
  'packages/playwright-export/src/login-per-worker.browser.test.ts',
  // The apps' redesigns proven alike to their originals: the server apps signed in (about 150 s of file
  // time), the static apps (about 50 s): proofs of the fixtures, as CI's fixture-bugs project is.
  'fixtures/apps/redesigns-server-apps.browser.test.ts',
  'fixtures/apps/redesigns.browser.test.ts',
  // The visual fixture site's planted changes and dynamic content over repeated runs (about 50 s):
  // issue 40's proof of visual checks; npm test keeps design-diff's own visual browser tests.
  'fixtures/visual/visual-changes.browser.test.ts',
];

/** Builds the server bundle when stale and makes the migrated template databases, once per run. */
const SERVER_SETUP = ['apps/server/src/testing/global-setup.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          isolate: false,
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [
            '**/*.api.test.ts',
            '**/*.browser.test.ts',
            '**/*.load.test.ts',
            '**/*.endurance.test.ts',
            '**/node_modules/**',
          ],
          environment: 'node',
          maxWorkers: IN_PROCESS_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          // The server in-process (testing/in-process-server.ts: app.inject and a listener for sockets).
          name: 'api',
          isolate: false,
          include: ['apps/server/src/**/*.api.test.ts', 'packages/*/src/**/*.api.test.ts'],
          exclude: [...BROWSER_API_TESTS, ...SCALE_TESTS, '**/node_modules/**'],
          globalSetup: SERVER_SETUP,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          maxWorkers: IN_PROCESS_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'api-browser',
          isolate: false,
          include: BROWSER_API_TESTS,
          globalSetup: SERVER_SETUP,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          maxWorkers: BROWSER_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'browser',
          isolate: false,
          include: ['packages/*/src/**/*.browser.test.ts', 'fixtures/**/*.browser.test.ts'],
          exclude: [...LONG_BROWSER_TESTS, '**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: BROWSER_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'browser-long',
          isolate: false,
          include: LONG_BROWSER_TESTS,
          testTimeout: 300_000,
          hookTimeout: 60_000,
          maxWorkers: BROWSER_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          isolate: false,
          include: ['e2e/**/*.e2e.test.ts', 'fixtures/**/*.e2e.test.ts'],
          globalSetup: SERVER_SETUP,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          maxWorkers: BROWSER_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // CI's (.ci/run): each fixture app's planted bugs, each failing the checks written for it
          // (`npm run test:fixture-bugs` picks those tests by name).
          name: 'fixture-bugs',
          isolate: false,
          // The Playwright export's proof runs every planted bug there, one in `npm test`.
          include: [
            'fixtures/apps/apps.browser.test.ts',
            'fixtures/apps/pantry/pantry.browser.test.ts',
            'fixtures/apps/clinic/clinic.browser.test.ts',
            'packages/playwright-export/src/export.browser.test.ts',
          ],
          env: { FIXTURE_BUG_PROOFS: '1' },
          testTimeout: 180_000,
          hookTimeout: 60_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          // The mutation test of generated suites (mutation/README.md): minutes, CI only.
          name: 'mutation',
          include: ['mutation/**/*.mutation.test.ts'],
          testTimeout: 900_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          // Repairs of generated suites on the fixture apps' redesigns (mutation/README.md, issue 39):
          // minutes, CI only. The mutation project's glob takes the file too; it runs only here.
          name: 'repairs',
          include: ['mutation/repairs.mutation.test.ts'],
          env: { ARGUS_REPAIRS_CHECK: '1' },
          testTimeout: 3_600_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          // Web processes and workers on Redis (npm run test:scale): CI only.
          name: 'scale',
          isolate: false,
          include: SCALE_TESTS,
          globalSetup: SERVER_SETUP,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
      {
        test: {
          // Many users at once against one spawned server (npm run test:load): minutes, CI only.
          name: 'load',
          include: ['apps/server/src/**/*.load.test.ts'],
          globalSetup: SERVER_SETUP,
          testTimeout: 600_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
      {
        test: {
          // The long versions of the checks `npm test` runs short (testing/endurance.ts): CI only,
          // through `npm run test:endurance`, which selects the tests named 'endurance: …'.
          name: 'endurance',
          include: [
            'apps/server/src/shutdown/shutdown.api.test.ts',
            'apps/server/src/conversation/conversation.api.test.ts',
            'apps/server/src/ws/frame-backpressure.api.test.ts',
            'apps/server/src/schedules/two-processes.api.test.ts',
            'packages/engine/src/sign-in-lanes.browser.test.ts',
            'fixtures/apps/clinic/shared-session.browser.test.ts',
          ],
          env: { ARGUS_ENDURANCE: '1' },
          globalSetup: SERVER_SETUP,
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
