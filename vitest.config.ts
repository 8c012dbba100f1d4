import { defineConfig } from 'vitest/config';

/**
 * One run for every workspace: unit tests next to the code, medium tests against real databases
 * and peers in apps/server/test, and Chromium journeys in e2e/.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['packages/*/src/**/*.test.ts'] } },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Files share their worker's modules: each one would otherwise import the whole server
          // again. They hold no module state of their own (no mocks, no stubbed globals).
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A page answers in milliseconds on a quiet machine, but the suite also runs while other
          // work loads both cores: polls wait for their condition up to 15 s unless they say otherwise.
          expect: { poll: { timeout: 15_000 } },
          pool: 'forks',
          fileParallelism: false,
          isolate: false,
        },
      },
    ],
  },
});
