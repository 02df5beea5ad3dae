import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/temp-folder.ts', 'test/setup/cli-build.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child processes rather than worker threads: safest with tfjs (wasm/native backends).
    pool: 'forks',
    // Vitest's default, one file fewer than the cores, runs one file at a time on a 2-core
    // laptop: the suite then takes 12 minutes there instead of 9. Many files wait on child
    // processes (CLI runs, Redis, Chromium), so two files at once fit on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
