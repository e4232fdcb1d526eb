import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.api.test.ts', '**/*.browser.test.ts', '**/*.load.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/src/**/*.api.test.ts', 'packages/*/src/**/*.api.test.ts'],
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // Each file starts real servers and browsers; on two cores, one file at a time stays predictable.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['packages/*/src/**/*.browser.test.ts', 'fixtures/**/*.browser.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // The mutation test of generated suites (mutation/README.md): minutes, not part of test:all.
          name: 'mutation',
          include: ['mutation/**/*.mutation.test.ts'],
          testTimeout: 900_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          // Many users at once against one spawned server (npm run test:load): minutes, CI only, not in test:all.
          name: 'load',
          include: ['apps/server/src/**/*.load.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts', 'fixtures/**/*.e2e.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two cores: one browser-driven file at a time keeps timings sane.
          fileParallelism: false,
        },
      },
    ],
  },
});
